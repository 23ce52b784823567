ids => {
  // The widget's parts a click could not reach: for the puzzle and each control shown, a 3 x 3 grid of points
  // inside its box is hit-tested as a click would be (elementFromPoint); a part is covered if any point is off
  // screen or hits something that is not the widget's own content.
  const widget = document.getElementById('synth-widget');
  return ids.filter(id => {
    const e = document.getElementById(id);
    if (!e || !e.getClientRects().length) return false;
    const r = e.getBoundingClientRect();
    return [1, 3, 5].some(fy => [1, 3, 5].some(fx => {
      const x = r.left + r.width * fx / 6, y = r.top + r.height * fy / 6;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
      const h = document.elementFromPoint(x, y);
      return !h || !widget || !(h === e || e.contains(h) || h.contains(e) && widget.contains(h));
    }));
  });
}
