"""Education: an online course page: the course's landing page (what you'll learn, syllabus, instructor,
enrolment box) or its learning view (video player, lesson list with progress, tabs)."""
import re

import numpy as np

from synth.screens.content import load

CATEGORY = "education"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")
# a lesson whose name holds one of these is a quiz or an exercise, not a video
QUIZ_WORDS = ("Quiz", "测验", "Assignment", "作业", "project", "Project", "实战")
OTHER_COURSES = (0.3, 4.0)   # the instructor's other courses: their students and reviews, as a share of this one's


def _amount(price: str) -> float:
    """The number in a price as shown ("$84.99", "¥599")."""
    return float(re.sub(r"[^\d.]", "", price))


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("education", lang)
    course = d["courses"][int(rng.integers(len(d["courses"])))]
    done = int(rng.integers(1, 9))
    sections, k = [], 0
    for title, lessons in course["sections"]:
        items = []
        for name in lessons:
            items.append({"name": name, "minutes": int(rng.integers(3, 22)), "done": k < done, "current": k == done,
                          "kind": "quiz" if any(w in name for w in QUIZ_WORDS) else "video"})
            k += 1
        sections.append({"title": title, "lessons": items, "minutes": sum(i["minutes"] for i in items)})
    total = sum(s["minutes"] for s in sections)
    playing = next((i["minutes"] for s in sections for i in s["lessons"] if i["current"]), 12)
    ratings, students = int(rng.integers(300, 40000)), int(rng.integers(2000, 400000))
    price = d["price"][int(rng.integers(len(d["price"])))]
    # the struck-through list price is above the price paid (none for a free course)
    higher = [o for o in d["orig"] if price not in ("Free", "免费") and _amount(o) > _amount(price)]
    return {
        "course": course, "sections": sections, "lessons": k, "done": done, "progress": int(done * 100 / k),
        "total": total,
        "open": [i == 0 or bool(rng.random() < 0.3)   # which syllabus sections are expanded
                 for i in range(len(sections))],
        "view": str(rng.choice(["landing", "learning"])),
        "rating": round(float(rng.uniform(4.3, 4.9)), 1), "ratings": ratings, "students": students,
        # the instructor's other courses add to this one's students and reviews
        "teacher_students": students + int(students * rng.uniform(*OTHER_COURSES)),
        "teacher_reviews": ratings + int(ratings * rng.uniform(*OTHER_COURSES)),
        "level": d["levels"][int(rng.integers(len(d["levels"])))],
        "updated": d["updated"][int(rng.integers(len(d["updated"])))],
        "price": price, "orig": higher[int(rng.integers(len(higher)))] if higher else "",
        "nav": d["nav"], "courses_taught": int(rng.integers(3, 30)),
        "list_side": str(rng.choice(["right", "left"], p=[0.8, 0.2])),   # learning view: lesson list beside the player
        "hero": str(rng.choice(["dark", "plain"])),                        # landing view header band
        "density": str(rng.choice(["compact", "normal"])),
        "sections_order": [str(s) for s in rng.permutation(["learn", "syllabus", "instructor"])],
        # the player is inside the current lesson: its position before the lesson's length
        "player_time": f"{int(rng.integers(0, 9)) % playing}:{int(rng.integers(0, 60)):02d}",
        "player_length": f"{playing}:00",
    }
