"""Developer: a desktop system monitor (Task Manager, Activity Monitor, GNOME System Monitor): tabs, a process
table with CPU and memory columns, CPU/memory usage bars, and optionally a terminal pane with shell output."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load, pick

CATEGORY = "developer"
APP_THREADS = (4, 72)       # threads of an app or daemon
KERNEL_THREADS = (180, 420)  # of the kernel (kernel_task, System)
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Navigation, summary bars, process table and terminal of one system monitor window."""
    base = chrome(rng, lang, "monitor", "系统监视器" if lang == "zh" else "System Monitor")
    d = load("desktop_developer", lang)
    os_style = base["os"]
    n = int(rng.integers(13, 19))
    cpu = np.sort(np.round(rng.gamma(1.2, 2.5, n), 1))[::-1]
    owners = d["users"][os_style]   # system processes' accounts; every other process is the signed-in user's ("")
    procs = [{"name": name, "cpu": float(cpu[i]), "mem": round(float(rng.gamma(1.5, 180)) + 8, 1),
              "pid": int(rng.integers(80, 40000)),
              "threads": int(rng.integers(*(KERNEL_THREADS if name in d["kernel_threads"] else APP_THREADS))),
              "disk": float(np.round(rng.choice([0, 0, 0.1, 0.3, 1.2, 4.8]), 1)),
              "net": float(np.round(rng.choice([0, 0, 0, 0.1, 0.4, 2.1]), 1)),
              "user": owners.get(name, ""),
              "status": d["status"][int(rng.integers(len(d["status"])))], "kids": int(rng.choice([0, 0, 0, 2, 5, 12]))}
             for i, name in enumerate(pick(rng, d["procs"][os_style], n))]
    sort = str(rng.choice(["cpu", "mem"], p=[0.7, 0.3]))
    if sort == "mem":
        procs.sort(key=lambda p: -p["mem"])
    sessions = d["sessions"] if os_style == "gnome" else d["sessions"][1:]   # the first one runs Linux-only tools
    terminal = str(rng.choice(["none", "bottom"], p=[0.55, 0.45]))
    return {
        **base, "procs": procs, "sort": sort, "host": d["host"], "sample": d["sample"],
        "session": sessions[int(rng.integers(len(sessions)))],
        "usage": {"cpu": min(96, int(cpu.sum()) + int(rng.integers(2, 12))), "mem": int(rng.integers(35, 88)),
                  "disk": int(rng.integers(0, 30)),
                  "net": int(rng.integers(0, 20)), "gpu": int(rng.integers(0, 40))},
        "ram_gb": int(rng.choice([8, 16, 32])), "cores": int(rng.choice([8, 10, 12, 16])),
        "history": [int(x) for x in np.clip(rng.normal(35, 14, 40), 3, 97)],            # CPU load over the last minute
        "nav": str(rng.choice(["rail", "tabs"], p=[0.5, 0.5])),   # Task Manager's side rail, or tabs on top
        "summary": str(rng.choice(["side", "top", "bottom"], p=[0.35, 0.35, 0.3])),      # where the usage bars sit
        "terminal": terminal,
        "heat": bool(rng.random() < 0.5),                                                # shade busy CPU/memory cells
        "columns": str(rng.choice(["full", "short"], p=[0.6, 0.4])),
        "selected": int(rng.integers(0, 6)),
        "tree": bool(rng.random() < 0.4),                                                # expandable app groups
    }
