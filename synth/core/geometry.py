"""Boxes and points in pixels: a box is [x0, y0, x1, y1] (edges included), a point [x, y]."""


def inside(box, p) -> bool:
    """Whether point `p` lies in `box`, edges included."""
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def contains(outer, inner) -> bool:
    """Whether box `inner` lies wholly in box `outer`."""
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def centre(box) -> tuple[float, float]:
    """The centre of a box."""
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
