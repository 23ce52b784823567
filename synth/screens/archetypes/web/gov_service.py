"""Government: a government service portal's application form: service steps, applicant ID and address
fields, document upload, notices and a service guide (Chinese pages follow 政务服务网 conventions)."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "government"
PLACEMENTS = ("inline", "modal")   # the CAPTCHA in the form, where sites put it, or over the page


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("government", lang)
    service = d["services"][int(rng.integers(len(d["services"])))]
    return {
        "portal": d["portals"][int(rng.integers(len(d["portals"])))], "service": service, "nav": d["nav"],
        "id_types": d["id_types"], "states": d["states"], "phone": d["phone"], "hours": d["hours"],
        "notices": pick(rng, d["notices"], int(rng.integers(1, 4))),
        "related": [x["name"] for x in pick(rng, [x for x in d["services"] if x is not service], 3)],
        "step": int(rng.integers(0, 2)),                          # filling in details, or uploading documents
        "steps": str(rng.choice(["bar", "numbers", "tabs"])),     # how the steps are drawn
        "guide": str(rng.choice(["right", "left", "none"], p=[0.55, 0.2, 0.25])),
        "banner": bool(rng.random() < 0.7),                       # "An official website of ..." strip / 官方网站 strip
        "notice_pos": str(rng.choice(["top", "bottom"])),
        "two_columns": bool(rng.random() < 0.6),
        "code_login": bool(rng.random() < 0.6),                    # phone verification code field
        "uploads": pick(rng, service["docs"], len(service["docs"])),
        # a resident ID number: region, birth date, sequence; abroad a driving licence number
        "id_sample": (f"3301{int(rng.integers(10, 99))}19{int(rng.integers(60, 99))}"
                      f"{int(rng.integers(1, 13)):02d}{int(rng.integers(1, 29)):02d}{int(rng.integers(1000, 9999))}"
                      if lang == "zh" else f"D{int(rng.integers(1000000, 9999999))}"),
        "density": str(rng.choice(["compact", "normal"])),
    }
