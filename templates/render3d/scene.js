// synth.families.kit.render3d's scene renderer (three.js on WebGL; in headless Chromium that is SwiftShader on the CPU).
// renderScenes(list) draws each scene description (synth/families/kit/render3d/scene.py: Scene.to_json) three ways:
//   - the picture: lit, 4x multisampling, shadows from the sun's shadow map ("sun") or soft contact shadows
//     under each object ("contact": a fraction of the cost on the CPU);
//   - the ID pass: each pixel's object id in R (255 for the ground, 0 for the sky), its distance along the
//     camera's axis in G, B (16 bits from near to far) and its part's tag in A, flat unlit, not antialiased;
//   - each object alone (on the ground) in the ID pass, when another object may hide part of it: its silhouette
//     (pixel count, box, centroid, depth); objects nothing nearer touches are measured in the ID pass itself.
// Each scene's objects are built anew; geometries, materials, lights and render targets are kept, since
// SwiftShader spends far more on compiling shaders and allocating buffers than on drawing a small scene.
import * as THREE from 'three';

const canvas = document.getElementById('view');
const renderer = new THREE.WebGLRenderer({canvas, antialias: false, alpha: false, powerPreference: 'low-power'});
renderer.setPixelRatio(1);
renderer.shadowMap.enabled = true;
renderer.shadowMap.type = THREE.PCFShadowMap;
const DEG = Math.PI / 180;
const GROUND_ID = 255;
const SAMPLES = 4;

const hemi = new THREE.HemisphereLight();
const sun = new THREE.DirectionalLight();
sun.target.position.set(0, 0, 0);
sun.shadow.bias = -0.0005;
sun.shadow.normalBias = 0.02;
sun.shadow.radius = 2;

const UNIT = {};      // kind -> geometry of unit size, centred on the origin (and kind:edges, its edges)
function unit(kind) {
  if (!UNIT[kind]) {
    UNIT[kind] = {
      cube: () => new THREE.BoxGeometry(1, 1, 1),
      sphere: () => new THREE.SphereGeometry(0.5, 48, 24),
      cylinder: () => new THREE.CylinderGeometry(0.5, 0.5, 1, 48),
      cone: () => new THREE.ConeGeometry(0.5, 1, 48),
      torus: () => new THREE.TorusGeometry(0.35, 0.15, 24, 64).rotateX(Math.PI / 2),   // flat, like a ring on a table
      wedge: wedge,
    }[kind]();
    UNIT[kind + ':edges'] = new THREE.EdgesGeometry(UNIT[kind], 30);
  }
  return UNIT[kind];
}

// A triangular prism, 1 x 1 x 1, its apex edge pointing +z (an arrow head lying flat)
function wedge() {
  const shape = new THREE.Shape();
  shape.moveTo(-0.5, -0.5); shape.lineTo(0.5, -0.5); shape.lineTo(0, 0.5); shape.closePath();
  const g = new THREE.ExtrudeGeometry(shape, {depth: 1, bevelEnabled: false});
  g.translate(0, 0, -0.5);
  g.rotateX(Math.PI / 2);     // the triangle lies in the ground plane, apex towards +z
  return g;
}

// A soft dark disc, the contact shadow of an object on the ground
let blobTexture = null;
function blob() {
  if (!blobTexture) {
    const n = 64, data = new Uint8Array(n * n * 4);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const r = Math.hypot((x + 0.5) / n * 2 - 1, (y + 0.5) / n * 2 - 1);
      const a = r >= 1 ? 0 : Math.pow(1 - r * r, 2);
      data.set([0, 0, 0, Math.round(255 * a)], 4 * (y * n + x));
    }
    blobTexture = new THREE.DataTexture(data, n, n, THREE.RGBAFormat);
    blobTexture.magFilter = blobTexture.minFilter = THREE.LinearFilter;
    blobTexture.needsUpdate = true;
  }
  return blobTexture;
}
const _box = new THREE.Box3(), _size = new THREE.Vector3(), _centre = new THREE.Vector3();

// The picture is drawn into a linear 8-bit target (multisampling into an sRGB target is slow in SwiftShader);
// its shaders encode sRGB themselves.
function srgbOutput(material) {
  material.onBeforeCompile = shader => {
    shader.fragmentShader = shader.fragmentShader.replace('#include <colorspace_fragment>',
                                                          'gl_FragColor = sRGBTransferOETF( gl_FragColor );');
  };
  material.customProgramCacheKey = () => 'srgb-output';
  return material;
}

const ID_VERTEX = `
varying float vDepth;
void main() {
  vec4 mv = modelViewMatrix * vec4(position, 1.0);
  vDepth = -mv.z;
  gl_Position = projectionMatrix * mv;
}`;
const ID_FRAGMENT = `
uniform float uId;
uniform float uTag;
uniform float uNear;
uniform float uFar;
varying float vDepth;
void main() {
  float d = floor(clamp((vDepth - uNear) / (uFar - uNear), 0.0, 1.0) * 65535.0 + 0.5);
  float hi = floor(d / 256.0);
  gl_FragColor = vec4(uId / 255.0, hi / 255.0, (d - hi * 256.0) / 255.0, uTag / 255.0);
}`;

// Materials are kept (they differ in colour: a few hundred at most): disposing the last material of a kind
// would delete its compiled program. three.js draws opaque objects sorted by material id, which follows the
// order materials were first made in this browser; objects whose surfaces tie in depth then paint in an order
// that depends on the scenes drawn before. So each material is ranked by its first use in the current scene
// (the order a fresh page makes them in) and the sort uses the rank: a scene's pixels do not depend on history.
const MATERIALS = new Map();
let sceneNo = 0, ranked = 0;
function material(key, make) {
  if (!MATERIALS.has(key)) MATERIALS.set(key, make());
  const m = MATERIALS.get(key);
  if (m.userData.scene !== sceneNo) Object.assign(m.userData, {scene: sceneNo, rank: ranked++});
  return m;
}
// three.js's painterSortStable, with the material's rank in this scene instead of its id
renderer.setOpaqueSort((a, b) => a.groupOrder - b.groupOrder || a.renderOrder - b.renderOrder ||
  a.material.userData.rank - b.material.userData.rank || a.materialVariant - b.materialVariant || a.z - b.z ||
  a.id - b.id);

const colour = c => new THREE.Color().setRGB(c[0] / 255, c[1] / 255, c[2] / 255, THREE.SRGBColorSpace);

function surface(p) {
  if (!p.lit) return material(`flat:${p.colour}`, () => srgbOutput(new THREE.MeshBasicMaterial({color: colour(p.colour)})));
  return material(`lit:${p.colour}:${p.shine}`, () => srgbOutput(new THREE.MeshPhongMaterial({
    color: colour(p.colour), specular: new THREE.Color(p.shine, p.shine, p.shine), shininess: 40})));
}

function idMaterial(id, tag, near, far) {
  const m = material(`id:${id}:${tag}`, () => new THREE.ShaderMaterial({vertexShader: ID_VERTEX,
    fragmentShader: ID_FRAGMENT, uniforms: {uId: {value: id}, uTag: {value: tag}, uNear: {value: near}, uFar: {value: far}}}));
  m.uniforms.uNear.value = near;
  m.uniforms.uFar.value = far;
  return m;
}

function place(obj, spec) {
  obj.position.set(...spec.position);
  obj.rotation.set(spec.rotation[0] * DEG, spec.rotation[1] * DEG, spec.rotation[2] * DEG, 'YXZ');
  obj.scale.set(...spec.scale);
}

function build(spec) {
  sceneNo++;
  const scene = new THREE.Scene();
  const meshes = [];     // [mesh, object id]
  const lines = [];
  const groups = {};
  for (const o of spec.objects) {
    const group = new THREE.Group();
    place(group, o);
    for (const p of o.parts) {
      const mesh = new THREE.Mesh(unit(p.kind), surface(p));
      place(mesh, p);
      mesh.castShadow = mesh.receiveShadow = true;
      group.add(mesh);
      meshes.push([mesh, o.id, p.tag]);
      if (p.edges) {
        const line = new THREE.LineSegments(UNIT[p.kind + ':edges'],
          material(`line:${p.edges}`, () => srgbOutput(new THREE.LineBasicMaterial({color: colour(p.edges)}))));
        mesh.add(line);
        lines.push(line);
      }
    }
    scene.add(group);
    groups[o.id] = group;
  }
  const shadows = [];
  if (spec.shadows === 'contact' && spec.ground) {
    const L = spec.light, away = new THREE.Vector2(-L.direction[0], -L.direction[2]);
    if (away.length() > 0) away.normalize();
    UNIT.blob = UNIT.blob || new THREE.PlaneGeometry(1, 1).rotateX(-Math.PI / 2);
    const mat = material('blob', () => srgbOutput(new THREE.MeshBasicMaterial({map: blob(), transparent: true,
                                                   opacity: 0.55, depthWrite: false})));
    for (const o of spec.objects) {
      _box.setFromObject(groups[o.id]);
      _box.getSize(_size);
      _box.getCenter(_centre);
      const lift = Math.max(0, _box.min.y - spec.ground.y);     // a floating object's shadow is fainter
      const r = Math.max(_size.x, _size.z) * 1.35 + lift * 0.5;
      const m = new THREE.Mesh(UNIT.blob, mat);
      m.scale.set(r, 1, r);
      m.position.set(_centre.x + away.x * r * 0.08, spec.ground.y + 0.002, _centre.z + away.y * r * 0.08);
      m.renderOrder = 1;
      if (lift > r) continue;
      scene.add(m);
      shadows.push(m);
    }
  }
  let ground = null;
  if (spec.ground) {
    const g = spec.ground;
    UNIT.ground = UNIT.ground || new THREE.PlaneGeometry(1, 1).rotateX(-Math.PI / 2);
    ground = new THREE.Mesh(UNIT.ground, material(`ground:${g.colour}`,
      () => srgbOutput(new THREE.MeshLambertMaterial({color: colour(g.colour)}))));
    ground.scale.set(g.size, 1, g.size);
    ground.position.y = g.y;
    ground.receiveShadow = true;
    scene.add(ground);
  }
  const L = spec.light;
  hemi.color.copy(colour(L.sky));
  hemi.groundColor.copy(colour(L.floor));
  hemi.intensity = L.ambient;
  sun.color.copy(colour(L.colour));
  sun.intensity = L.intensity;
  sun.position.set(...L.direction.map(v => v * L.distance));
  sun.castShadow = spec.shadows === 'sun';
  if (sun.castShadow) {
    const size = L.shadow_map, e = L.shadow_extent;
    if (sun.shadow.mapSize.x !== size) {      // another size needs another map
      sun.shadow.mapSize.set(size, size);
      if (sun.shadow.map) { sun.shadow.map.dispose(); sun.shadow.map = null; }
    }
    Object.assign(sun.shadow.camera, {left: -e, right: e, top: e, bottom: -e, near: 0.1, far: 2 * L.distance});
    sun.shadow.camera.updateProjectionMatrix();
  }
  scene.add(hemi, sun, sun.target);
  const C = spec.camera;
  const camera = new THREE.PerspectiveCamera(C.fov, spec.width / spec.height, C.near, C.far);
  camera.position.set(...C.position);
  camera.up.set(0, 1, 0);
  camera.lookAt(...C.target);
  camera.updateMatrixWorld();
  return {scene, camera, meshes, lines, shadows, groups, ground};
}

const TARGETS = {};     // "w,h" -> {colour, id}
function targets(w, h) {
  const key = w + ',' + h;
  if (!TARGETS[key]) {
    const opts = {depthBuffer: true, type: THREE.UnsignedByteType, format: THREE.RGBAFormat, generateMipmaps: false,
                  minFilter: THREE.NearestFilter, magFilter: THREE.NearestFilter, colorSpace: THREE.NoColorSpace};
    TARGETS[key] = {colour: new THREE.WebGLRenderTarget(w, h, {...opts, samples: SAMPLES}),
                    id: new THREE.WebGLRenderTarget(w, h, {...opts, samples: 0})};
  }
  return TARGETS[key];
}

function base64(bytes) {
  if (bytes.toBase64) return bytes.toBase64();
  const parts = [];
  for (let i = 0; i < bytes.length; i += 0x8000) parts.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)));
  return btoa(parts.join(''));
}

// RGBA rows bottom-up -> the first three channels, rows top-down
function rgbRows(rgba, w, h) {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    let src = (h - 1 - y) * w * 4, dst = y * w * 3;
    for (let x = 0; x < w; x++, src += 4, dst += 3) {
      out[dst] = rgba[src];
      out[dst + 1] = rgba[src + 1];
      out[dst + 2] = rgba[src + 2];
    }
  }
  return out;
}

// RGBA rows bottom-up -> the first channel, rows top-down
function channelRows(rgba, w, h, c) {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let src = (h - 1 - y) * w * 4 + c, dst = y * w;
    for (let x = 0; x < w; x++, src += 4) out[dst++] = rgba[src];
  }
  return out;
}

// the depth codes (G, B) of an ID pass, two bytes a pixel (big-endian), rows top-down
function depthRows(rgba, w, h) {
  const out = new Uint8Array(w * h * 2);
  for (let y = 0; y < h; y++) {
    let src = (h - 1 - y) * w * 4 + 1, dst = y * w * 2;
    for (let x = 0; x < w; x++, src += 4, dst += 2) {
      out[dst] = rgba[src];
      out[dst + 1] = rgba[src + 1];
    }
  }
  return out;
}

// Silhouettes of objects `ids` in an ID pass (rows bottom-up), found in one pass over it: each one's pixels, box,
// centroid, nearest and mean depth (0..65535)
function silhouettes(rgba, w, h, ids) {
  const n = new Float64Array(256), sx = new Float64Array(256), sy = new Float64Array(256), sd = new Float64Array(256);
  const dmin = new Int32Array(256).fill(65535), x0 = new Int32Array(256).fill(w), y0 = new Int32Array(256).fill(h);
  const x1 = new Int32Array(256).fill(-1), y1 = new Int32Array(256).fill(-1), wanted = new Uint8Array(256);
  for (const id of ids) wanted[id] = 1;
  for (let r = 0, i = 0; r < h; r++) {
    const y = h - 1 - r;
    for (let x = 0; x < w; x++, i += 4) {
      const id = rgba[i];
      if (!wanted[id]) continue;
      const d = rgba[i + 1] * 256 + rgba[i + 2];
      n[id]++; sx[id] += x; sy[id] += y; sd[id] += d;
      if (d < dmin[id]) dmin[id] = d;
      if (x < x0[id]) x0[id] = x;
      if (x > x1[id]) x1[id] = x;
      if (y < y0[id]) y0[id] = y;
      if (y > y1[id]) y1[id] = y;
    }
  }
  return ids.map(id => n[id] ? {id, area: n[id], cx: sx[id] / n[id] + 0.5, cy: sy[id] / n[id] + 0.5,
                                box: [x0[id], y0[id], x1[id] + 1, y1[id] + 1], depth_min: dmin[id], depth_mean: sd[id] / n[id]}
                             : {id, area: 0, cx: 0, cy: 0, box: [0, 0, 0, 0], depth_min: 65535, depth_mean: 65535});
}

// Objects that may be partly hidden: some pixel of theirs borders a pixel of another object that is nearer
// (or about as near). An object nothing nearer touches shows whole (the image's edge clips its solo pass too).
function mayBeHidden(rgba, w, h, ids) {
  const out = new Set(), seen = new Set();
  const touch = (i, id, d, j) => {          // pixel i (object id, depth code d) beside pixel j
    const other = rgba[j];
    if (other === id || other === 0 || other === GROUND_ID) return;
    const e = rgba[j + 1] * 256 + rgba[j + 2];
    if (e <= d + NEAR_CODE) out.add(id);    // the other one is nearer: this one may be hidden
    if (d <= e + NEAR_CODE) out.add(other);
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0, i = y * w * 4; x < w; x++, i += 4) {
      const id = rgba[i];
      if (id === 0 || id === GROUND_ID) continue;
      seen.add(id);
      const d = rgba[i + 1] * 256 + rgba[i + 2];
      if (x + 1 < w) touch(i, id, d, i + 4);
      if (y + 1 < h) touch(i, id, d, i + 4 * w);
    }
  }
  return ids.filter(id => out.has(id) || !seen.has(id));
}
const NEAR_CODE = 64;      // depth codes (of 65535) within which two touching surfaces count as equally near

function renderOne(spec) {
  const w = spec.width, h = spec.height;
  const {scene, camera, meshes, lines, shadows, groups, ground} = build(spec);
  const target = targets(w, h);
  const bg = spec.background;    // sRGB bytes, written as they are into the linear target
  renderer.setClearColor(new THREE.Color().setRGB(bg[0] / 255, bg[1] / 255, bg[2] / 255, THREE.LinearSRGBColorSpace), 1);
  renderer.setRenderTarget(target.colour);
  renderer.shadowMap.needsUpdate = true;
  renderer.render(scene, camera);
  const rgba = new Uint8Array(w * h * 4);
  renderer.readRenderTargetPixels(target.colour, 0, 0, w, h, rgba);

  // the ID pass: flat ids, no lines, no shadows, no antialiasing
  renderer.shadowMap.autoUpdate = false;
  const near = spec.camera.near, far = spec.camera.far;
  for (const [mesh, id, tag] of meshes) mesh.material = idMaterial(id, tag, near, far);
  if (ground) ground.material = idMaterial(GROUND_ID, 0, near, far);
  for (const l of lines) l.visible = false;
  for (const s of shadows) s.visible = false;
  renderer.setClearColor(new THREE.Color(0, 1, 1), 1);     // id 0 (sky), depth 65535 (far)
  renderer.setRenderTarget(target.id);
  renderer.render(scene, camera);
  const ids = new Uint8Array(w * h * 4);
  renderer.readRenderTargetPixels(target.id, 0, 0, w, h, ids);
  // each object that may be partly hidden, alone (on the ground, which hides what is below it in both passes)
  const all = Object.keys(groups).map(Number);
  const hidden = new Set(spec.solo === 'all' ? all : spec.solo === 'none' ? [] : mayBeHidden(ids, w, h, all));
  const shown = new Map(silhouettes(ids, w, h, all.filter(id => !hidden.has(id))).map(s => [s.id, s]));
  const solo = [], buffer = soloBuffer(w * h * 4);
  for (const id of all) {
    if (!hidden.has(id)) {
      solo.push(shown.get(id));
      continue;
    }
    for (const other of all) groups[other].visible = other === id;
    renderer.render(scene, camera);
    renderer.readRenderTargetPixels(target.id, 0, 0, w, h, buffer);
    solo.push(silhouettes(buffer, w, h, [id])[0]);
  }
  renderer.shadowMap.autoUpdate = true;
  renderer.setRenderTarget(null);
  scene.clear();
  return {rgb: base64(rgbRows(rgba, w, h)), ids: base64(channelRows(ids, w, h, 0)),
          depth: spec.depth ? base64(depthRows(ids, w, h)) : null, tags: spec.tags ? base64(channelRows(ids, w, h, 3)) : null,
          solo, solo_passes: hidden.size};
}

let kept = new Uint8Array(0);
function soloBuffer(n) {
  if (kept.length !== n) kept = new Uint8Array(n);
  return kept;
}

export function renderScenes(list) {
  return list.map(renderOne);
}
