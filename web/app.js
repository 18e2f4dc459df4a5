// The page of `modern-chess serve`. It judges nothing: legal moves, SAN, check and results come
// from the server's JSON API; this file only draws them and sends what the user does.
import { Chessground } from '/vendor/chessgroundx-10.7.4/chessground.js';

const $ = id => document.getElementById(id);
const params = new URLSearchParams(location.search);
// `?as=white` (or black): this browser plays that side of a game shared between two people.
const mySide = params.get('as');

let cg = null;
let boardShape = '';
let game = null;
let events = null;
let shown = null;
let orientation = mySide === 'black' ? 'black' : 'white';

// chessgroundx names ranks 1-9 by their digit and ranks 10-16 by the characters after '9'
// (':' is rank 10), so every key stays two characters long.
const keyOf = sq => sq[0] + String.fromCharCode(48 + parseInt(sq.slice(1), 10));
const squareOf = key => key[0] + (key.charCodeAt(1) - 48);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.body = JSON.stringify(body);
    opts.headers['Content-Type'] = 'application/json';
  }
  const res = await fetch('/api/' + path, opts);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function showError(message) {
  $('error').textContent = message || '';
}

// A letter in a disc, for pieces the board has no image for.
function glyph(letter, colour) {
  const fill = colour === 'white' ? '#fff' : '#222';
  const ink = colour === 'white' ? '#000' : '#fff';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">` +
    `<circle cx="22.5" cy="22.5" r="18" fill="${fill}" stroke="#000" stroke-width="1.5"/>` +
    `<text x="22.5" y="23" text-anchor="middle" dominant-baseline="central" ` +
    `font-family="sans-serif" font-weight="bold" font-size="22" fill="${ink}">${letter}</text></svg>`;
  return 'data:image/svg+xml,' + encodeURIComponent(svg);
}

function imageOf(piece, colour) {
  return piece.image ? piece.image[colour] : glyph(piece.letter, colour);
}

function pieceStyles(variant) {
  const rules = [];
  for (const p of variant.pieces) {
    for (const colour of ['white', 'black']) {
      rules.push(`.cg-wrap piece.${p.role}.${colour} { background-image: url("${imageOf(p, colour)}"); }`);
    }
  }
  $('piece-style').textContent = rules.join('\n');
}

function destinations(state) {
  const dests = new Map();
  for (const m of state.legal) {
    const from = keyOf(m.from);
    const list = dests.get(from) || [];
    for (const t of m.targets) if (!list.includes(keyOf(t))) list.push(keyOf(t));
    dests.set(from, list);
  }
  return dests;
}

// Which colour this browser may move now, if any.
function movableColour(state) {
  if (state.result || state.players[state.turn].kind !== 'human') return undefined;
  if (mySide && mySide !== state.turn) return undefined;
  return state.turn;
}

function makeBoard(variant) {
  const { files, ranks } = variant;
  const el = $('board');
  el.style.setProperty('--files', files);
  el.style.setProperty('--ranks', ranks);
  el.dataset.shape = `${files}x${ranks}`;
  el.style.height = (el.clientWidth * ranks / files) + 'px';
  if (cg) cg.destroy();
  cg = Chessground(el, {
    dimensions: { width: files, height: ranks },
    orientation,
    coordinates: true,
    autoCastle: false,
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
    premovable: { enabled: false },
    draggable: { showGhost: true },
    movable: { free: false, showDests: true, events: { after: onUserMove } },
  });
  boardShape = `${variant.name}:${files}x${ranks}`;
  pieceStyles(variant);
}

function refreshBoard() {
  const state = game;
  const last = state.moves[state.moves.length - 1];
  cg.set({
    fen: state.fen.split(' ')[0],
    turnColor: state.turn,
    lastMove: last ? [keyOf(last.from), keyOf(last.to)] : undefined,
    check: state.check ? [keyOf(state.check)] : false,
    movable: { color: movableColour(state), dests: destinations(state) },
  });
}

function renderMoves(state) {
  const ol = $('moves');
  ol.innerHTML = '';
  const start = state.fen && state.start_fen.split(' ')[1] === 'b' ? 1 : 0;
  let li = null;
  state.moves.forEach((m, i) => {
    const ply = i + start;
    if (ply % 2 === 0 || !li) {
      li = document.createElement('li');
      li.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) li.appendChild(span('…', 'move'));
      ol.appendChild(li);
    }
    li.appendChild(span(m.san, 'move san'));
  });
  ol.scrollTop = ol.scrollHeight;
}

function span(text, cls) {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}

function renderStatus(state) {
  let text;
  if (state.result) {
    text = `Game over: ${state.result} (${state.reason})`;
  } else {
    const who = state.players[state.turn].kind === 'engine' ? ' (engine)' : '';
    text = `${state.turn === 'white' ? 'White' : 'Black'} to move${who}${state.check ? ', in check' : ''}`;
  }
  $('status').textContent = text;
  $('status').dataset.result = state.result || '';
  $('fen').value = state.fen;
  $('pgn').href = `/api/games/${state.id}/pgn`;
  const idText = state.start_id !== null ? ` #${state.start_id}` : '';
  $('title').textContent = `${state.variant.title}${idText}`;
  const link = `${location.origin}/?game=${state.id}`;
  $('game-link').href = link;
  $('game-link').textContent = link;
  $('as-white').href = link + '&as=white';
  $('as-black').href = link + '&as=black';
  if (!state.searching) $('thinking').textContent = '';
}

function showThinking(t) {
  const score = t.mate !== null && t.mate !== undefined
    ? `mate ${t.mate}` : (t.score_cp >= 0 ? '+' : '') + (t.score_cp / 100).toFixed(2);
  $('thinking').textContent = `depth ${t.depth}  ${score}  ${t.pv.join(' ')}`;
}

// Takes a state from the server (an answer or an event), unless a newer one is shown already.
function apply(state) {
  if (game && game.id === state.id && state.version < game.version) return;
  const shape = `${state.variant.name}:${state.variant.files}x${state.variant.ranks}`;
  game = state;
  if (!cg || shape !== boardShape) makeBoard(state.variant);
  refreshBoard();
  renderMoves(state);
  renderStatus(state);
  if (state.thinking) showThinking(state.thinking);
  if (!shown || shown.id !== state.id || shown.moves !== state.moves.length) listGames().catch(() => {});
  shown = { id: state.id, moves: state.moves.length };
  document.body.dataset.version = state.version;
  document.body.dataset.game = state.id;
}

function closeChooser() {
  $('chooser').hidden = true;
  $('chooser').innerHTML = '';
}

// More than one legal move fits the drop (a promotion, or a king step that is also castling):
// the user picks one.
function choose(candidates) {
  const box = $('chooser');
  box.innerHTML = '';
  for (const m of candidates) {
    const b = document.createElement('button');
    b.dataset.uci = m.uci;
    if (m.promo) {
      const p = game.variant.pieces.find(x => x.letter === m.promo);
      const img = document.createElement('img');
      img.src = imageOf(p, game.turn);
      img.alt = p.name;
      b.appendChild(img);
      b.title = `${p.name} (${m.san})`;
    } else {
      b.textContent = m.san;
    }
    b.addEventListener('click', () => { closeChooser(); sendMove(m.uci); });
    box.appendChild(b);
  }
  const cancel = document.createElement('button');
  cancel.textContent = 'cancel';
  cancel.addEventListener('click', () => { closeChooser(); refreshBoard(); });
  box.appendChild(cancel);
  box.hidden = false;
}

function onUserMove(orig, dest) {
  const candidates = game.legal.filter(m => keyOf(m.from) === orig && m.targets.some(t => keyOf(t) === dest));
  if (candidates.length === 1) sendMove(candidates[0].uci);
  else if (candidates.length > 1) choose(candidates);
  else refreshBoard();
}

async function sendMove(uci) {
  const body = { move: uci };
  if (mySide) body.side = mySide;
  try {
    showError('');
    apply(await api('POST', `games/${game.id}/move`, body));
  } catch (e) {
    showError(e.message);
    refreshBoard();
  }
}

async function action(path, body) {
  if (!game) return;
  try {
    showError('');
    apply(await api('POST', `games/${game.id}/${path}`, body));
  } catch (e) {
    showError(e.message);
  }
}

function watch(id) {
  if (events) events.close();
  events = new EventSource(`/api/games/${id}/events`);
  events.addEventListener('state', e => apply(JSON.parse(e.data)));
  events.addEventListener('thinking', e => showThinking(JSON.parse(e.data)));
}

async function open(id) {
  try {
    apply(await api('GET', `games/${id}`));
    $('variant').value = game.variant.name;
    watch(id);
    history.replaceState(null, '', `/?game=${id}${mySide ? '&as=' + mySide : ''}`);
  } catch (e) {
    showError(e.message);
  }
}

function player(side) {
  return { kind: $(`${side}-kind`).value, level: parseInt($(`${side}-level`).value, 10) };
}

async function newGame(ev) {
  ev.preventDefault();
  const spec = {
    variant: $('variant').value,
    white: player('white'),
    black: player('black'),
    movetime_ms: parseInt($('movetime').value, 10),
  };
  const kind = $('start-kind').value;
  const value = $('start-value').value.trim();
  if (kind === 'id') spec.id = parseInt(value, 10);
  else if (kind === 'setup') spec.setup = value;
  else if (kind === 'fen') spec.fen = value;
  else if (value) spec.seed = parseInt(value, 10);
  try {
    showError('');
    const state = await api('POST', 'games', spec);
    await open(state.id);
    listGames();
  } catch (e) {
    showError(e.message);
  }
}

async function listGames() {
  const ul = $('games');
  ul.innerHTML = '';
  for (const g of await api('GET', 'games')) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `/?game=${g.id}`;
    a.textContent = `${g.variant} ${g.id} (${g.moves} plies${g.result ? ', ' + g.result : ''})`;
    li.appendChild(a);
    ul.appendChild(li);
  }
}

async function init() {
  for (const v of await api('GET', 'variants')) {
    const o = document.createElement('option');
    o.value = v.name;
    o.textContent = `${v.short} (${v.files}x${v.ranks})`;
    $('variant').appendChild(o);
  }
  $('new-game').addEventListener('submit', newGame);
  $('undo').addEventListener('click', () => action('undo', {}));
  $('resign').addEventListener('click', () => action('resign', mySide ? { side: mySide } : {}));
  $('engine').addEventListener('click', () => action('engine', {}));
  $('flip').addEventListener('click', () => {
    orientation = orientation === 'white' ? 'black' : 'white';
    if (cg) cg.set({ orientation });
  });
  $('copy-fen').addEventListener('click', async () => {
    $('fen').select();
    try { await navigator.clipboard.writeText($('fen').value); } catch (e) { document.execCommand('copy'); }
  });
  await listGames();
  const id = params.get('game');
  if (id) await open(id);
  document.body.dataset.ready = 'yes';
}

init().catch(e => showError(e.message));
