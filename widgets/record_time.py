"""How record panes write moments and spans: short enough for a column, read at a glance."""

from __future__ import annotations

import time


def clock(at: float, now: float | None = None) -> str:
    """`14:05:09` for a moment of today, `Nov 21` for an earlier day of this year, `2025-11` before that."""
    moment, today = time.localtime(at), time.localtime(time.time() if now is None else now)
    if moment[:3] == today[:3]:
        return time.strftime("%H:%M:%S", moment)
    if moment.tm_year == today.tm_year:
        return time.strftime("%b %d", moment)
    return time.strftime("%Y-%m", moment)


def span(seconds: float) -> str:
    """`0.4s`, `12s`, `3m05s`, `2h04m`, `3d04h`: at most six cells."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{seconds:.1f}s"
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    minutes, rest = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes}m{rest:02d}s"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours}h{minutes:02d}m"
    days, hours = divmod(hours, 24)
    return f"{days}d{hours:02d}h"
