// Replay controls: a slider over versions, a step per turn, keyboard shortcuts, and the live toggle.
// ←/→ step a turn, Home/End jump to the first/last position, space toggles live.

import { $ } from './dom.js';

/**
 * `onView(version, live)` is called whenever the viewed position changes. Returns an object whose
 * `update(head, boundaries)` follows new events and whose `goTo(version)` jumps to a version.
 */
export function initReplay({ onView }) {
  const slider = $('#replay-slider');
  const liveButton = $('#live-toggle');
  let head = 1;
  let boundaries = [1];
  let live = true;
  let version = 1;

  function show() {
    slider.max = String(head);
    slider.value = String(version);
    liveButton.setAttribute('aria-pressed', String(live));
    liveButton.classList.toggle('on', live);
    $('#replay-version').textContent = live ? `live · version ${head}` : `version ${version} of ${head}`;
    onView(version, live);
  }

  function goTo(v, stayLive = false) {
    version = Math.max(1, Math.min(head, v));
    live = stayLive && version === head;
    show();
  }

  function step(direction) {
    const target = direction > 0 ? boundaries.find((b) => b > version) : [...boundaries].reverse().find((b) => b < version);
    goTo(target ?? (direction > 0 ? head : boundaries[0] ?? 1));
  }

  function toggleLive() {
    live = !live;
    if (live) version = head;
    show();
  }

  slider.addEventListener('input', () => goTo(Number(slider.value)));
  $('#step-back').addEventListener('click', () => step(-1));
  $('#step-forward').addEventListener('click', () => step(1));
  $('#to-start').addEventListener('click', () => goTo(boundaries[0] ?? 1));
  $('#to-end').addEventListener('click', () => goTo(head));
  liveButton.addEventListener('click', toggleLive);

  document.addEventListener('keydown', (event) => {
    const target = event.target;
    const typing = target instanceof HTMLElement && (target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName)
      || (target.tagName === 'INPUT' && target.type !== 'range' && target.type !== 'checkbox'));
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    const actions = {
      ArrowLeft: () => step(-1),
      ArrowRight: () => step(1),
      Home: () => goTo(boundaries[0] ?? 1),
      End: () => goTo(head),
      ' ': toggleLive,
    };
    const action = actions[event.key];
    if (!action) return;
    if (event.key === ' ' && target instanceof HTMLElement && target.tagName === 'BUTTON') return;
    event.preventDefault();
    action();
  });

  return {
    update(newHead, newBoundaries) {
      head = Math.max(1, newHead);
      boundaries = newBoundaries.length ? newBoundaries : [1];
      if (live) version = head;
      show();
    },
    goTo,
    get live() {
      return live;
    },
    get version() {
      return version;
    },
  };
}
