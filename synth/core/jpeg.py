"""JPEG screenshots that differ from their page only inside a rectangle, for the cost of encoding the rectangle.

Every CAPTCHA sample is a cached page with a new puzzle and instruction pasted into the widget. The page is
encoded once with a restart marker after every 16x16 block (MCU): each block's entropy-coded segment is
then independent of the others, so a sample encodes only the blocks its patch covers and splices them
between the page's. The result is byte-identical to encoding the whole composed screenshot with the same
settings (baseline, 4:2:0, standard Huffman tables, restart interval 1); the markers cost ~5% in size.
Images that are not spliced (PNG, grounding screens, episode steps) are encoded whole by encode_image."""
import cv2
import numpy as np

QUALITY = 90                               # of every JPEG screenshot
MCU = 16                                   # block size of 4:2:0 JPEG, in pixels
_SOS, _EOI = b"\xff\xda", b"\xff\xd9"


def encode(rgb: np.ndarray, quality: int) -> bytes:
    """JPEG bytes of an RGB image with a restart marker after every MCU."""
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
                            [cv2.IMWRITE_JPEG_QUALITY, quality, cv2.IMWRITE_JPEG_RST_INTERVAL, 1])
    if not ok:
        raise RuntimeError("could not encode a JPEG image")
    return data.tobytes()


def encode_image(rgb: np.ndarray, fmt: str) -> bytes:
    """JPEG (quality QUALITY) or PNG bytes of an RGB image: a stored image, made whole."""
    params = [cv2.IMWRITE_PNG_COMPRESSION, 1] if fmt == "png" else [cv2.IMWRITE_JPEG_QUALITY, QUALITY]
    ok, data = cv2.imencode("." + fmt, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), params)
    if not ok:
        raise RuntimeError(f"could not encode a {fmt} image")
    return data.tobytes()


def _scan(data: bytes) -> tuple[bytes, bytes]:
    """(headers up to the end of the scan header, the entropy-coded data) of a JPEG."""
    sos = data.index(_SOS)
    start = sos + 2 + int.from_bytes(data[sos + 2:sos + 4], "big")
    if not data.endswith(_EOI):
        raise ValueError("JPEG does not end with EOI")
    return data[:start], data[start:-2]


def _markers(scan, segments: int) -> np.ndarray:
    """Positions of the restart markers in entropy-coded data that must hold `segments` segments (a 0xFF
    byte of the data itself is stuffed as FF 00, so FF D0..D7 is always a marker)."""
    raw = np.frombuffer(scan, np.uint8)
    found = np.flatnonzero((raw[:-1] == 0xFF) & ((raw[1:] & 0xF8) == 0xD0))
    if len(found) != segments - 1:
        raise RuntimeError(f"expected one restart interval per MCU, found {len(found) + 1} segments")
    return found


_MARKERS = [bytes((0xFF, 0xD0 + i)) for i in range(8)]   # the marker after segment k is _MARKERS[k & 7]


def block_box(box: tuple[float, float, float, float], width: int, height: int) -> tuple[int, int, int, int]:
    """The smallest rectangle of whole MCUs (clipped to the image) that covers `box`."""
    x0, y0, x1, y1 = box
    return (int(x0) // MCU * MCU, int(y0) // MCU * MCU,
            min(width, -(-int(np.ceil(x1)) // MCU) * MCU), min(height, -(-int(np.ceil(y1)) // MCU) * MCU))


def page_encoder(rgb: np.ndarray, boxes: dict[str, list[float]]) -> "PageEncoder":
    """The encoder of the samples made from one page (pixels and widget boxes): they differ from it only in
    the puzzle area and the instruction band."""
    parts = [boxes["synth-puzzle"], boxes["synth-instruction"]]
    box = (min(b[0] for b in parts), min(b[1] for b in parts), max(b[2] for b in parts), max(b[3] for b in parts))
    h, w = rgb.shape[:2]
    return PageEncoder(rgb, block_box(box, w, h), QUALITY)


class PageEncoder:
    """Encodes copies of one page that differ from it only inside one fixed MCU-aligned rectangle."""

    def __init__(self, rgb: np.ndarray, box: tuple[int, int, int, int], quality: int) -> None:
        h, w = rgb.shape[:2]
        x0, y0, x1, y1 = box
        if x0 % MCU or y0 % MCU or (x1 % MCU and x1 != w) or (y1 % MCU and y1 != h):
            raise ValueError(f"patch box {box} is not aligned to {MCU}-pixel blocks")
        self.box, self.quality = box, quality
        self.cols = -(-w // MCU)
        self.c0, self.r0, self.c1, self.r1 = x0 // MCU, y0 // MCU, -(-x1 // MCU), -(-y1 // MCU)
        header, scan = _scan(encode(rgb, quality))
        n = self.cols * -(-h // MCU)
        markers = _markers(scan, n).tolist()
        segments = [scan[a:b] for a, b in zip([0] + [m + 2 for m in markers], markers + [len(scan)])]
        # the page's bytes around the patch: before its first block, between its rows, after its last block,
        # each with the markers that precede the next patch block
        pieces = []
        prev = 0
        for r in range(self.r0, self.r1):
            first, last = r * self.cols + self.c0, r * self.cols + self.c1
            pieces.append(b"".join(segments[k] + _MARKERS[k & 7] for k in range(prev, first)))
            prev = last
        tail = b"".join(segments[k] + (_MARKERS[k & 7] if k < n - 1 else b"") for k in range(prev, n))
        self._header, self._gaps, self._tail, self._n = header + pieces[0], pieces[1:], tail + _EOI, n

    def encode(self, patch: np.ndarray) -> bytes:
        """The JPEG of the page with `patch` (the pixels of the whole box) in place of the box."""
        x0, y0, x1, y1 = self.box
        if patch.shape[:2] != (y1 - y0, x1 - x0):
            raise ValueError(f"patch is {patch.shape[1]}x{patch.shape[0]}, box is {x1 - x0}x{y1 - y0}")
        scan = bytearray(_scan(encode(np.ascontiguousarray(patch), self.quality))[1])
        # the patch's own restart markers, renumbered for the segments' places in the page
        width = self.c1 - self.c0
        markers = _markers(scan, width * (self.r1 - self.r0))
        local = np.arange(len(markers))
        place = (self.r0 + local // width) * self.cols + self.c0 + local % width
        np.frombuffer(scan, np.uint8)[markers + 1] = 0xD0 | (place & 7)
        ends = np.append(markers[width - 1::width] + 2, len(scan))   # after each row's last marker
        last = (self.r1 - 1) * self.cols + self.c1 - 1               # the page's index of the patch's last segment
        out, start = [self._header], 0
        for i, end in enumerate(ends.tolist()):
            if i:
                out.append(self._gaps[i - 1])
            out.append(memoryview(scan)[start:end])
            start = end
        if last != self._n - 1:      # a marker follows unless it is the image's last segment
            out.append(_MARKERS[last & 7])
        out.append(self._tail)
        return b"".join(out)
