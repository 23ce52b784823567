"""synth.families.kit.render3d: the picture, ID and depth passes agree with the scene's geometry; the same scene gives
the same bytes in a fresh browser and in a long-lived one; a crashed Chromium is replaced."""
import time

import numpy as np
import pytest

from synth.families.kit import render3d as r3

SIZE = (320, 320)
RED, GREEN, BLUE, GREY = (200, 40, 40), (40, 160, 60), (40, 80, 200), (130, 130, 130)


def scene(shadows="contact", size=SIZE, azimuth=20.0) -> r3.Scene:
    objects = (
        r3.Obj(1, (r3.Part("cube", RED),), (-1.5, 0.5, 0.0)),
        r3.Obj(2, (r3.Part("sphere", GREEN), r3.Part("cone", RED, (0, 0, 0.5), (90, 0, 0), (0.3, 0.4, 0.3), tag=9)),
               (0.0, 0.6, 1.0), scale=(1.2, 1.2, 1.2)),
        r3.Obj(3, (r3.Part("cylinder", BLUE),), (1.5, 0.6, -0.5), scale=(1.0, 1.2, 1.0)),
        r3.Obj(4, (r3.Part("cone", (220, 180, 30)),), (0.0, 0.5, -2.0)),
        r3.Obj(5, (r3.Part("torus", (150, 60, 180)),), (-1.0, 0.15, 2.0), scale=(1.4, 1.4, 1.4)),
        r3.Obj(6, tuple(r3.Part("cube", GREY, p, edges=(30, 30, 30)) for p in ((0, 0, 0), (1, 0, 0), (1, 1, 0))),
               (2.0, 0.3, 2.0), scale=(0.6, 0.6, 0.6)),
        r3.Obj(7, (r3.Part("wedge", (230, 120, 30)),), (-1.9, 0.5, -0.9), rotation=(0.0, 90.0, 0.0)),
    )
    return r3.Scene(size, objects, r3.orbit(10, 35, azimuth), shadows=shadows)


def test_passes_agree_with_the_geometry():
    s = scene()
    out = r3.render(s, depth=True, tags=True)
    assert out.rgb.shape == (320, 320, 3) and out.ids.shape == (320, 320) and out.depth.shape == (320, 320)
    # the sphere's nose (tag 9) points at the camera, in front of the sphere: nearer, and drawn over it
    nose = out.tags == 9
    assert nose.sum() > 20 and (out.ids[nose] == 2).all() and set(np.unique(out.tags)) == {0, 9}
    assert out.depth[nose].mean() < out.depth[(out.ids == 2) & ~nose].mean()
    # each silhouette lies where the camera projects its object, at the distance the camera sees it
    centres = r3.project(s.camera, s.size, [o.position for o in s.objects])
    dist = r3.to_camera(s.camera, [o.position for o in s.objects])[:, 2]
    for o, c, d in zip(s.objects, centres, dist):
        sil = out.solo[o.id]
        x0, y0, x1, y1 = sil.box
        assert x0 <= c[0] <= x1 and y0 <= c[1] <= y1, o
        assert sil.depth_min < d + 0.1 and abs(sil.depth_mean - d) < 1.0, (o.id, sil, d)
        seen = out.depth[out.ids == o.id]
        assert np.isfinite(seen).all() and abs(np.median(seen) - sil.depth_mean) < 0.6
    assert np.isinf(out.depth[out.ids == 0]).all()
    # the wedge stands behind the red cube, which hides part of it; the others show whole
    assert 0.3 < out.visible_share(7) < 0.95
    assert out.visible_share(2) == pytest.approx(1.0, abs=0.01)
    # flat ids: the ID pass has only the scene's ids, the picture is lit (shades within one object)
    assert set(np.unique(out.ids)) <= {0, 1, 2, 3, 4, 5, 6, 7, r3.GROUND_ID}
    assert out.rgb[out.ids == 1].std(axis=0).max() > 5
    assert (out.instances() == r3.GROUND_ID).sum() == 0


def test_unoccluded_objects_are_measured_without_their_own_pass():
    for shadows in ("sun", "none"):
        s = scene(shadows)
        quick, full, none = r3.render(s), r3.render(s, solo="all"), r3.render(s, solo="none")
        assert quick.solo == full.solo and np.array_equal(quick.rgb, full.rgb)
        assert none.solo[7].area < full.solo[7].area and none.solo[2] == full.solo[2]


def test_same_bytes_in_a_fresh_and_a_long_lived_browser():
    target = scene("sun", azimuth=-30.0)
    fresh, used = r3.Renderer(), r3.Renderer()
    try:
        first = r3.render(target, depth=True, using=fresh)
        # the other browser draws other scenes first: other sizes, shadows, colours
        for k, shadows in enumerate(("none", "contact", "sun", "contact")):
            r3.render(scene(shadows, size=(300 - 20 * k, 300), azimuth=10.0 * k), using=used)
        again = r3.render(target, depth=True, using=used)
    finally:
        fresh.close()
        used.close()
    assert np.array_equal(first.rgb, again.rgb)
    assert np.array_equal(first.ids, again.ids) and np.array_equal(first.depth, again.depth)
    assert first.solo == again.solo


def test_surfaces_that_tie_in_depth_paint_alike_whatever_was_drawn_before():
    """Two cubes in one place tie in depth everywhere: which one shows must not depend on the order in which
    earlier scenes made their materials (three.js sorts by material id)."""
    def twins(first, second) -> r3.Scene:
        return r3.Scene(SIZE, (r3.Obj(1, (r3.Part("cube", first),), (0.0, 0.5, 0.0)),
                               r3.Obj(2, (r3.Part("cube", second),), (0.0, 0.5, 0.0))), r3.orbit(8, 30, 20.0))
    fresh, used = r3.Renderer(), r3.Renderer()
    try:
        first = r3.render(twins(RED, BLUE), using=fresh)
        r3.render(twins(BLUE, RED), using=used)     # makes the blue material first
        again = r3.render(twins(RED, BLUE), using=used)
    finally:
        fresh.close()
        used.close()
    assert np.array_equal(first.rgb, again.rgb) and np.array_equal(first.ids, again.ids)


def test_shadows_change_the_picture_not_the_ids():
    a, b, c = (r3.render(scene(s)) for s in ("sun", "contact", "none"))
    assert np.array_equal(a.ids, b.ids) and np.array_equal(b.ids, c.ids)
    ground = c.ids == r3.GROUND_ID
    # shadows darken the ground near the objects, and only there
    for shaded in (a, b):
        darker = c.rgb[ground].astype(int).sum(1) - shaded.rgb[ground].astype(int).sum(1)
        assert 0.01 < (darker > 30).mean() < 0.3 and (darker >= -3).all()


def test_a_crashed_chromium_is_replaced():
    own = r3.Renderer()
    try:
        first = r3.render(scene(), using=own)
        own._chromium.kill()   # as the out-of-memory killer would
        time.sleep(0.5)
        again = r3.render(scene(), using=own)
        assert own._chromium.starts == 2 and np.array_equal(first.rgb, again.rgb)
    finally:
        own.close()
    own.close()               # a second close does nothing


def test_runs_beside_a_sync_playwright_of_the_callers_thread():
    """A worker's page browser holds its thread's Playwright; the renderer has a thread of its own."""
    from playwright.sync_api import sync_playwright
    with sync_playwright():
        assert r3.render(scene()).rgb.shape == (320, 320, 3)


def test_scene_descriptions_are_checked():
    with pytest.raises(ValueError, match="part kind"):
        r3.Part("pyramid", RED)
    with pytest.raises(ValueError, match="object id"):
        r3.Obj(255, (r3.Part("cube", RED),))
    with pytest.raises(ValueError, match="distinct"):
        r3.Scene(SIZE, (r3.Obj(1, (r3.Part("cube", RED),)),) * 2, r3.orbit(8, 30, 0))
    with pytest.raises(ValueError, match="shadows"):
        r3.Scene(SIZE, (), r3.orbit(8, 30, 0), shadows="soft")


def test_rotation_matrix_turns_as_three_js_does():
    # heading 90 degrees turns +z (an object's front) to +x; a YXZ rotation is heading after pitch
    assert r3.rotation_matrix((0, 90, 0)) @ np.array([0, 0, 1]) == pytest.approx([1, 0, 0], abs=1e-9)
    m = r3.rotation_matrix((30, 90, 0))
    assert m == pytest.approx(r3.rotation_matrix((0, 90, 0)) @ r3.rotation_matrix((30, 0, 0)))
    # a wedge (apex towards +z) turned to +x, seen from above: narrow to the right, its base to the left
    s = r3.Scene(SIZE, (r3.Obj(1, (r3.Part("wedge", RED),), (0, 0.5, 0), (0, 90, 0), (2, 1, 2)),),
                 r3.orbit(8, 89, 0))
    mask = r3.render(s).ids == 1
    cols = np.nonzero(mask.any(0))[0]
    left, right = mask[:, cols[0] + 5].sum(), mask[:, cols[-1] - 5].sum()
    assert left > 3 * right
