"""One worker's recipe for a sample: seed -> params -> puzzle -> verify -> page -> compose -> label -> bytes."""
import contextlib
import inspect
from collections import Counter
from functools import lru_cache

import cv2
import numpy as np

from synth import SCHEMA, __version__
from synth.families.kit import draw
from synth.core import jpeg
from synth.labels import reward, spec
from synth.captcha.augment import degrade_puzzle
from synth.captcha.compose import at_device_scale, compose, font, font_sizes, puzzle_origin, puzzle_size, to_image
from synth.engine.config import POOL_SPAN, RunConfig, page_blocks, page_pool, screen_block_start
from synth.families import FAMILIES
from synth.families.base import Reject, Task
from synth.core.levels import LEVELS
from synth.engine.survey import grounding_spec
from synth.engine.pagestore import PageStore, block_specs, render_block
from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import PLATFORMS, PageSpec, list_templates
from synth.core.seeds import sample_seed

MAX_ATTEMPTS = 60      # redraws of one sample before the run gives up
SITE_CACHE = 8         # rendered folder pages a grounding worker keeps
GROUNDING_PLATFORMS = ["web", "mobile", "desktop"]


class Generator:
    """Makes samples for one run in one process; keeps a small cache of rendered pages, which come from a page
    store or from its own Chromium."""

    def __init__(self, cfg: RunConfig, store: PageStore | None = None) -> None:
        self.cfg = cfg
        self.browser = Browser()
        self.store = store          # pages rendered by the run's page server, if any (else by this process)
        self._pool: int | None = None   # the page pool whose pages are cached
        self._pages: dict[PageSpec, RenderedPage | Exception] = {}
        self._block_of: dict[PageSpec, list[PageSpec]] = {}    # the current pool's pages, with their block
        self._encoders: dict[PageSpec, jpeg.PageEncoder] = {}
        self._site_pages: dict[PageSpec, RenderedPage] = {}   # grounding's folder pages, oldest first
        self._screens = contextlib.ExitStack()   # the render block grounding screens are rendered in
        self._next_screen = -1                   # the sample whose screen that block renders next

    def close(self) -> None:
        self._screens.close()
        self.browser.close()

    def page(self, spec: PageSpec, pool: int) -> RenderedPage:
        """A rendered page of page pool `pool`: from the page store, or rendered here with the rest of its
        render block (config.page_blocks). The current pool's pages are cached; when samples move on to
        another pool (they go through the pools in order), the pages it does not share are dropped."""
        if pool != self._pool:
            self._pool = pool
            self._block_of = {s: specs for _, pages in page_blocks(self.cfg, pool)
                              for specs in [block_specs(self.cfg, pages)] for s in specs}
            for cache in (self._pages, self._encoders):
                for old in [s for s in cache if s not in self._block_of]:
                    del cache[old]
        if spec not in self._pages:
            if self.store is not None:
                self._pages[spec] = self.store.fetch(spec)
            else:
                self._pages.update(render_block(self.browser, self._block_of.get(spec, [spec])))
        page = self._pages[spec]
        if isinstance(page, Exception):
            raise page
        return page

    def encode(self, spec: PageSpec, page: RenderedPage, puzzle_rgb: np.ndarray, instruction: str) -> bytes:
        """The sample's screenshot bytes: `page` (cached as `spec`) with the puzzle and instruction composed
        into it. JPEGs re-encode only the blocks the puzzle and instruction cover (synth.core.jpeg)."""
        if self.cfg.image_format != "jpg":
            return encode_image(compose(page, puzzle_rgb, instruction), self.cfg.image_format)
        encoder = self._encoders.get(spec)
        if encoder is None:   # the page server's, or made here
            encoder = self.store.encoder(spec) if self.store else None
            self._encoders[spec] = encoder = encoder or jpeg.page_encoder(page.rgb, page.boxes)
        return encoder.encode(compose(page, puzzle_rgb, instruction, encoder.box))

    def sample(self, index: int) -> tuple[str, dict[str, bytes], Counter]:
        """The sample at `index`: (key, members, rejection counts). Redraws rejected instances."""
        if self.cfg.kind == "grounding" and not self.cfg.pages:
            self._screen_block(index)
        return self._sample(index)

    def _screen_block(self, index: int) -> None:
        """Render grounding sample `index`'s screens in its render block (config.screen_block_start), each
        loaded once: a block starts in a fresh browser context, and a sample that does not follow the one
        before renders its block's earlier samples first, so that its pixels are those of a whole run."""
        start = screen_block_start(self.cfg, index)
        if index == start or index != self._next_screen:
            self._screens.close()
            self._screens.enter_context(self.browser.block())
            for earlier in range(start, index):
                self._sample(earlier)
        self._next_screen = index + 1

    def _sample(self, index: int) -> tuple[str, dict[str, bytes], Counter]:
        rejections: Counter = Counter()
        for attempt in range(MAX_ATTEMPTS):
            seed = sample_seed(self.cfg.seed, index, attempt)
            try:
                if self.cfg.kind == "grounding":
                    return self.cfg.key(index), self._attempt_grounding(index, seed, rejections), rejections
                return self.cfg.key(index), self._attempt(index, seed), rejections
            except Reject as r:
                rejections[r.reason] += 1
        raise RuntimeError(f"sample {index}: no instance passed verification in {MAX_ATTEMPTS} attempts "
                           f"({dict(rejections)})")

    def records(self, index: int) -> tuple[list[tuple[str, dict[str, bytes]]], Counter]:
        """The samples at `index`, as (key, members) in order, and the rejections: one sample, or for an
        episode run one per step of episode `index`."""
        if self.cfg.kind != "episode":
            key, members, rejections = self.sample(index)
            return [(key, members)], rejections
        rejections: Counter = Counter()
        for attempt in range(MAX_ATTEMPTS):
            try:
                return self._attempt_episode(index, sample_seed(self.cfg.seed, index, attempt), rejections), rejections
            except Reject as r:
                rejections[r.reason] += 1
        raise RuntimeError(f"episode {index}: no episode passed verification in {MAX_ATTEMPTS} attempts "
                           f"({dict(rejections)})")

    def _attempt_episode(self, index: int, seed: int, why: Counter) -> list[tuple[str, dict[str, bytes]]]:
        """Episode `index` of an episode run, on a page of its pool: the expert's trajectory (with a mistake
        in a share of episodes), one sample per step (synth.episodes.rollout)."""
        from synth import episodes
        from synth.episodes import rollout
        from synth.episodes.episode import start

        cfg = self.cfg
        rng = np.random.default_rng(seed)
        name = cfg.families[index % len(cfg.families)]
        task = episodes.task(name)
        pool = page_pool(cfg, index // POOL_SPAN)
        template, lang, variant, mode = pool[int(rng.integers(len(pool)))]
        platform = PageSpec(template, lang, variant, mode, "none").platform

        def page_for(controls: str) -> RenderedPage:
            return self.page(PageSpec(template, lang, variant, mode, controls), index // POOL_SPAN)
        episode = start(task, rng, cfg.difficulty, lang, PLATFORMS[platform]["puzzle"], page_for, why=why)
        frames = any(episodes.task(f).ANIMATED for f in cfg.families)   # then every sample has its frames
        steps = rollout.play(episode, rng, bool(rng.random() < cfg.mistakes), frames)
        out = []
        for i, step in enumerate(steps):
            key = f"{cfg.key(index)}-{i:03d}"
            label = rollout.step_label(key, cfg.key(index), name, cfg.difficulty, seed, episode, steps, i, cfg.image_format)
            check_step_label(label)
            members = {cfg.image_format: encode_image(step["image"], cfg.image_format), "json": spec.encode(label)}
            members.update({f["member"]: encode_image(img, cfg.image_format)
                            for f, (_, img) in zip(label["frames"], step["frames"])})
            out.append((key, members))
        return out

    def _attempt(self, index: int, seed: int) -> dict[str, bytes]:
        cfg = self.cfg
        rng = np.random.default_rng(seed)
        family = FAMILIES[cfg.families[index % len(cfg.families)]]
        pool = page_pool(cfg, index // POOL_SPAN)
        template, lang, variant, mode = pool[int(rng.integers(len(pool)))]
        platform = PageSpec(template, lang, variant, mode, "none", site=cfg.pages).platform
        dpr = PLATFORMS[platform]["dpr"]
        css_w, css_h = PLATFORMS[platform]["puzzle"]
        infeasible = bool(family.SUPPORTS_INFEASIBLE and rng.random() < cfg.infeasible)
        # puzzles are drawn at CSS size and scaled up on high-density screens, as a CAPTCHA image is
        params = family.sample_params(rng, cfg.difficulty, (css_w, css_h), infeasible=infeasible,
                                      **({"lang": lang} if takes_lang(family) else {}))
        page_spec = PageSpec(template, lang, variant, mode, family.controls(params), site=cfg.pages)
        page = self.page(page_spec, index // POOL_SPAN)
        if puzzle_size(page) != (css_w * dpr, css_h * dpr):
            raise RuntimeError(f"{template}: puzzle area is {puzzle_size(page)}, expected {(css_w * dpr, css_h * dpr)}")
        puzzle = family.render(params)
        task = family.solve(params, puzzle)
        aug_seed = int(rng.integers(2**31))
        rgb, instances, applied = degrade_puzzle(family, puzzle, cfg.difficulty, aug_seed)
        if not np.array_equal(instances, puzzle.instances):
            remeasure(task, puzzle.instances, instances)
        if dpr != 1:
            rgb = at_device_scale(rgb, dpr)
            scale_task(task, dpr)
        instruction = family.instruction(params, lang)
        image = self.encode(page_spec, page, rgb, instruction)
        label = make_label(cfg, index, seed, family, params, task, page, instruction,
                           {"seed": aug_seed, "applied": ",".join(applied)})
        check_label(label)
        return {cfg.image_format: image, "json": spec.encode(label)}


    def _attempt_grounding(self, index: int, seed: int, why: Counter) -> dict[str, bytes]:
        """A grounding sample on its own freshly rendered page (so no two samples share an image), with the
        run's queries on it, made smaller and compressed in a `degrade` share of samples (synth.grounding.degrade);
        built-in screens render in blocks (`_screen_block`)."""
        from synth.grounding import levels as grounding_levels, sample as grounding_sample

        cfg = self.cfg
        rng = np.random.default_rng(seed)
        if cfg.pages:
            page = self.site_page(grounding_spec(cfg, *cfg.page_list[int(rng.integers(len(cfg.page_list)))]))
        else:
            platforms = GROUNDING_PLATFORMS if cfg.platform == "mix" else [cfg.platform]
            platform = platforms[index % len(platforms)]
            templates = list_templates(platform)
            template = templates[int(rng.integers(len(templates)))]
            lang = cfg.lang if cfg.lang != "mix" else ("en", "zh")[(index // len(platforms)) % 2]
            viewport, dpr = grounding_levels.screen(platform, cfg.difficulty, index // len(platforms))
            page = self.browser.render(PageSpec(template, lang, int(rng.integers(2**31)), "none", "none", viewport, dpr))
        refusals = grounding_sample.refusal_count(index, cfg.queries, cfg.refusal)
        queries, knobs = grounding_sample.choose(rng, page, cfg.difficulty, cfg.queries, refusals, why)
        label = grounding_sample.make_label(cfg.key(index), cfg.kind, cfg.difficulty, seed, page, queries, knobs)
        rgb = page.rgb
        if cfg.degrade and rng.random() < cfg.degrade:
            from synth.grounding import degrade as grounding_degrade
            aug_seed = int(rng.integers(2**31))
            rgb = grounding_degrade.degrade(np.random.default_rng(aug_seed), rgb, label)
            label["params"]["augment"]["seed"] = aug_seed
        grounding_sample.check(label)
        return {cfg.image_format: encode_image(rgb, cfg.image_format), "json": spec.encode(label)}

    def site_page(self, page_spec: PageSpec) -> RenderedPage:
        """A folder page for grounding samples: a folder page renders the same every time, so samples on the
        same page share one render (the last SITE_CACHE pages are kept)."""
        page = self._site_pages.pop(page_spec, None) or self.browser.render(page_spec)
        self._site_pages[page_spec] = page
        if len(self._site_pages) > SITE_CACHE:
            del self._site_pages[next(iter(self._site_pages))]
        return page


@lru_cache(maxsize=None)
def takes_lang(family) -> bool:
    """Whether a family's sample_params takes the page's language (for the texts it draws in the puzzle)."""
    return "lang" in inspect.signature(family.sample_params).parameters


def warm_up(levels=None, families=None) -> None:
    """Draw a puzzle of each family at each level (default: all of them) and puzzle size, with no page, and
    load the instruction fonts: the caches that every process soon fills (textures, fonts, sprites) then
    exist once in the server that local workers fork from, shared by all of them, instead of once per
    worker. Families drawn by a browser (NEEDS_BROWSER) are left out: a Chromium started here would be the
    forked workers' too; names that are not CAPTCHA families (episode tasks) are ignored."""
    sizes = sorted({p["puzzle"] for p in PLATFORMS.values()})
    chosen = FAMILIES.values() if families is None else [FAMILIES[n] for n in families if n in FAMILIES]
    for family in chosen:
        if getattr(family, "NEEDS_BROWSER", False):
            continue
        for level in levels or LEVELS:
            for size in sizes:
                rng = np.random.default_rng([level, *size])
                try:
                    params = family.sample_params(rng, level, size)
                    puzzle = family.render(params)
                    family.solve(params, puzzle)
                    degrade_puzzle(family, puzzle, level, 0)
                except Reject:
                    pass
    for dpr in {p["dpr"] for p in PLATFORMS.values()}:
        for size in font_sizes(dpr):
            font(size)


def scale_task(task: Task, factor: int) -> None:
    """Scale a task's geometry from puzzle pixels to `factor` times larger ones (pixel-edge boxes scale exactly)."""
    def scaled(values):
        return [[v * factor for v in item] for item in values]
    for o in task.objects:
        o["bbox"] = [v * factor for v in o["bbox"]]
    task.target_boxes, task.end_boxes = scaled(task.target_boxes), scaled(task.end_boxes)
    task.points, task.end_points = scaled(task.points), scaled(task.end_points)
    task.tolerance_px *= factor


def remeasure(task: Task, before: np.ndarray, after: np.ndarray) -> None:
    """After a warp, re-measure every object's box and the reference points from the warped instance map."""
    boxes = draw.instance_boxes(after)
    area_before, area_after = draw.instance_areas(before), draw.instance_areas(after)
    for o in task.objects:
        if o["id"] not in boxes or area_after[o["id"]] < 0.8 * area_before[o["id"]]:
            raise Reject("augment.object_clipped")
        o["bbox"] = boxes[o["id"]]
        if "_mask" in o:
            o["_mask"] = after == o["id"]
    if task.target_ids:
        masks = {o["id"]: o["_mask"] for o in task.objects}
        task.target_boxes = [draw.mask_box(masks[i]) for i in task.target_ids]
        task.points = [draw.inner_point(masks[i]) for i in task.target_ids]


def encode_image(rgb: np.ndarray, fmt: str) -> bytes:
    """JPEG (quality 90) or PNG bytes of an RGB image."""
    params = [cv2.IMWRITE_PNG_COMPRESSION, 1] if fmt == "png" else [cv2.IMWRITE_JPEG_QUALITY, jpeg.QUALITY]
    ok, data = cv2.imencode("." + fmt, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), params)
    if not ok:
        raise RuntimeError(f"could not encode a {fmt} image")
    return data.tobytes()


def ui_objects(page: RenderedPage, start_id: int) -> list[dict]:
    """The widget's own controls as labelled objects."""
    roles = [("synth-verify", "button", "verify"), ("synth-refresh", "button", "refresh"),
             ("synth-answer", "input", "answer field"), ("synth-skip", "button", "skip")]
    return [{"id": start_id + i, "role": role, "label": label, "bbox": spec.fbox(page.boxes[el]),
             "visible_fraction": 1.0} for i, (el, role, label) in enumerate(roles) if el in page.boxes]


def reference(task: Task, boxes: dict[str, list[float]], origin: tuple[int, int]) -> tuple[list, list, list]:
    """(reference actions, accept steps, neutral regions) of a task, in image pixels."""
    verify = spec.fbox(boxes["synth-verify"])
    press_verify = [spec.action("click", point=spec.center(verify))]
    points = [spec.fbox(to_image(p, origin)) for p in task.points]
    targets = [to_image(b, origin) for b in task.target_boxes]
    if task.rule == "type":
        field = spec.fbox(boxes["synth-answer"])
        actions = [spec.action("click", point=spec.center(field)),
                   spec.action("type", point=spec.center(field), text=task.text)] + press_verify
        return actions, [spec.step("type", field, text=task.text)], [field, verify]
    if task.rule in ("click_set", "click_order"):
        actions = [spec.action("click", point=p) for p in points] + press_verify
        return actions, [spec.step("click", b) for b in targets], [verify]
    if task.rule == "drag":
        end = to_image(task.end_boxes[0], origin)
        actions = [spec.action("drag", point=points[0], end=to_image(task.end_points[0], origin))]
        return actions, [spec.step("drag", targets[0], end, tolerance=task.tolerance_px)], [verify]
    if task.rule == "long_press":
        actions = [spec.action("long_press", point=points[0], duration=task.duration + 0.5)]
        return actions, [spec.step("long_press", targets[0], min_duration=task.duration)], [verify]
    if task.rule == "skip":
        skip = spec.fbox(boxes["synth-skip"])
        return [spec.action("click", point=spec.center(skip))], [spec.step("click", skip)], [verify]
    raise ValueError(f"unknown task rule {task.rule!r}")


def make_label(cfg: RunConfig, index: int, seed: int, family, params, task: Task, page: RenderedPage,
               instruction: str, augment: dict) -> dict:
    """The label of DESIGN §3, in image pixels."""
    origin = puzzle_origin(page)
    boxes = page.boxes
    objects = [{"id": o["id"], "role": o["role"], "label": o["label"], "bbox": spec.fbox(to_image(o["bbox"], origin)),
                "visible_fraction": float(o["visible_fraction"])} for o in task.objects]
    objects += ui_objects(page, 200)
    actions, steps, neutral = reference(task, boxes, origin)
    h, w = page.rgb.shape[:2]
    knobs = [{"name": k, "value": round(float(v), 4)}
             for k, v in sorted({**params.knobs, "difficulty_stat": family.stat(params)}.items())]
    checks = [{"name": k, "value": round(float(v), 4)} for k, v in sorted(task.checks.items())]
    return {
        "schema": SCHEMA, "key": cfg.key(index), "kind": cfg.kind, "family": family.NAME,
        "difficulty": cfg.difficulty, "seed": seed, "platform": page.spec.platform, "lang": page.spec.lang,
        "template": page.spec.template, "image": {"width": int(w), "height": int(h)},
        "instruction": instruction, "answer": spec.answer(**{**task.answer, **({"text": task.text} if task.text else {})}),
        "actions": actions,
        "accept": {"order_matters": task.order_matters, "partial_credit": task.partial_credit,
                   "steps": steps, "neutral_regions": neutral},
        "widget": spec.fbox(boxes["synth-widget"]), "objects": objects,
        "params": {"task": task.rule, "target": params.target, "version": __version__,
                   "page": {"template": page.spec.template, "variant": page.spec.variant, "mode": page.spec.mode,
                            "controls": page.spec.controls},
                   "augment": augment, "knobs": knobs},
        "checks": {"passed": True, "items": checks},
    }


def check_step_label(label: dict) -> None:
    """Final checks on an episode step's label: the contract, and the reference action scoring 1.0."""
    if spec.validate(label):
        raise Reject("label.invalid")
    if reward.score(label, label["actions"]) != 1.0:
        raise Reject("label.reference_not_accepted")


def check_label(label: dict) -> None:
    """Final checks on a finished label; rejects it (Reject) if any fails and records what ran."""
    if spec.validate(label):
        raise Reject("label.invalid")
    ref = reward.score(label, label["actions"])
    if ref != 1.0:
        raise Reject("label.reference_not_accepted")
    wx0, wy0, wx1, wy1 = label["widget"]
    w, h = label["image"]["width"], label["image"]["height"]
    outside = [2.0, 2.0] if wx0 > 4 or wy0 > 4 else [w - 2.0, h - 2.0]
    wrong = reward.score(label, [{"type": "click", "point": outside}])
    distractors = [o for o in label["objects"] if o["role"] == "distractor"]
    wrong_pick = reward.score(label, [{"type": "click", "point": spec.center(distractors[0]["bbox"])}]) if distractors else 0.0
    if wrong >= 1.0 or wrong_pick >= 1.0:
        raise Reject("label.wrong_action_accepted")
    label["checks"]["items"] += [{"name": "reference_reward", "value": ref},
                                 {"name": "outside_click_reward", "value": wrong},
                                 {"name": "distractor_click_reward", "value": wrong_pick}]
