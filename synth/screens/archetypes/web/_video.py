"""Shared draws of the video pages: videos with channel, views, age and duration."""
import numpy as np

from synth.screens.content import load, pick


def views(n: int, lang: str) -> str:
    """A view count as video sites print it: "1.2M views", "12.3万播放"."""
    if lang == "zh":
        return f"{n / 10000:.1f}万" if n >= 10000 else str(n)
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n // 1000}K" if n >= 1000 else str(n)


def age(days: int, lang: str) -> str:
    """How long ago a video was uploaded: "3 weeks ago", "3周前"."""
    for span, en, zh in ((365, "year", "年"), (30, "month", "个月"), (7, "week", "周"), (1, "day", "天")):
        if days >= span:
            k = days // span
            return f"{k}{zh}前" if lang == "zh" else f"{k} {en}{'s' if k > 1 else ''} ago"
    return "今天" if lang == "zh" else "today"


LIVE_CHANCE = 0.3          # of a video that can be a stream (a radio, a walk: "live_ok" in its content)
LIVE_AGE = {"en": "Streaming now", "zh": "正在直播"}
RECENT_DAYS = 14           # "Recently uploaded": every video shown is younger than this


def _length(rng: np.random.Generator, video: dict) -> int:
    """Seconds: the range the title states ("3 hour mix": "secs" in its content), or a usual length (a week of
    cheap meals is no 2-hour film)."""
    secs = int(rng.integers(90, 25 * 60)) if rng.random() < 0.85 else int(rng.integers(25 * 60, 45 * 60))
    if "secs" in video:
        low, high = video["secs"]
        secs = low + secs % (high - low)
    return secs


def videos(rng: np.random.Generator, lang: str, k: int, max_days: int = 900) -> list[dict]:
    """`k` videos with their numbers drawn: a length that fits the title, live only for a video that can
    stream (and then streaming now), uploaded within `max_days`."""
    out = []
    for v in pick(rng, load("video", lang)["videos"], k):
        n = int(10 ** rng.uniform(3, 7))
        secs = _length(rng, v)
        h, m, s = secs // 3600, secs // 60 % 60, secs % 60
        days = int(rng.integers(0, max_days))
        live = bool(rng.random() < LIVE_CHANCE) and bool(v.get("live_ok"))
        out.append(dict(v, views=views(n, lang), age=LIVE_AGE[lang] if live else age(days, lang),
                        duration=f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}", secs=secs, live=live))
    return out
