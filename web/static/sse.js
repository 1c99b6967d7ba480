// Server-Sent Events over fetch(), so a seat's stream carries its token in the Authorization header.
// Reconnects with Last-Event-ID after a drop; stops on an `end` event or when closed.

/** Parse SSE text into frames; returns [frames, rest] where rest is an unfinished frame. */
export function parseFrames(buffer) {
  const frames = [];
  const text = buffer.replace(/\r\n?/g, '\n');
  const blocks = text.split('\n\n');
  const rest = blocks.pop();
  for (const block of blocks) {
    const frame = { id: null, event: 'message', data: [], retry: null };
    let any = false;
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id') frame.id = value;
      else if (field === 'event') frame.event = value;
      else if (field === 'data') frame.data.push(value);
      else if (field === 'retry') frame.retry = Number(value);
      any = true;
    }
    if (any) frames.push({ ...frame, data: frame.data.join('\n') });
  }
  return [frames, rest];
}

/**
 * Follow `url` (a /stream endpoint). `onEvent(frame)` gets every frame with data; `onState(text)` the
 * connection's state ('live', 'reconnecting', 'ended', 'error: ...'). Returns {close()}.
 */
export function follow(url, { token = null, lastEventId = null, onEvent, onState = () => {} }) {
  const controller = new AbortController();
  let last = lastEventId;
  let retryMs = 2000;
  let closed = false;

  async function connect() {
    while (!closed) {
      const headers = { Accept: 'text/event-stream' };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (last !== null && last !== undefined) headers['Last-Event-ID'] = String(last);
      try {
        const response = await fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
        if (!response.ok || !response.body) {
          let message = `HTTP ${response.status}`;
          try {
            message = (await response.json()).error.message;
          } catch { /* keep the status */ }
          onState(`error: ${message}`);
          if (response.status >= 400 && response.status < 500 && response.status !== 429) return;
        } else {
          onState('live');
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            const [frames, rest] = parseFrames(buffer);
            buffer = rest;
            for (const frame of frames) {
              if (frame.retry) retryMs = frame.retry;
              if (frame.id !== null && frame.id !== '') last = frame.id;
              if (frame.event === 'end') {
                closed = true;
                onEvent(frame);
                onState('ended');
                controller.abort();
                return;
              }
              onEvent(frame);
            }
          }
        }
      } catch (error) {
        if (closed || error.name === 'AbortError') return;
      }
      if (closed) return;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }

  connect();
  return {
    close() {
      closed = true;
      controller.abort();
    },
  };
}
