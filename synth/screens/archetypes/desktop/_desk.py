"""Draws every desktop archetype shares: the OS style, the apps on the taskbar or dock, density."""
import numpy as np

OS_STYLES = ("windows", "mac", "gnome")

# (ICONS key, English, Chinese) of the apps a taskbar or dock may show besides the running one
APPS = [("folder", "Files", "文件"), ("globe", "Browser", "浏览器"), ("mail", "Mail", "邮件"),
        ("calendar", "Calendar", "日历"), ("music", "Music", "音乐"), ("image", "Photos", "照片"),
        ("comment", "Chat", "聊天"), ("code", "Code", "代码"), ("sheet", "Sheets", "表格"),
        ("document", "Documents", "文档"), ("settings", "Settings", "设置"), ("monitor", "Terminal", "终端"),
        ("video", "Videos", "视频"), ("map", "Maps", "地图")]


def chrome(rng: np.random.Generator, lang: str, running: str, label: str) -> dict:
    """The OS style and the taskbar/dock apps, the running app (ICONS key `running`, name `label`) first."""
    others = [a for a in APPS if a[0] != running]
    n = int(rng.integers(4, 9))
    picked = [others[int(i)] for i in rng.permutation(len(others))[:n]]
    apps = [{"icon": running, "label": label}]
    apps += [{"icon": k, "label": zh if lang == "zh" else en} for k, en, zh in picked]
    return {"os": str(rng.choice(OS_STYLES)), "apps": apps,
            "density": str(rng.choice(["compact", "normal", "roomy"], p=[0.35, 0.45, 0.2]))}
