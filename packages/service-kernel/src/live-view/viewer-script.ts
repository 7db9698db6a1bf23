/**
 * The live view page's script, run in the viewer's browser. It is one self-contained function
 * (nothing from outside it, no imports), served as its own source text: the server ships it with
 * itself, nothing comes from elsewhere.
 *
 * It opens the page's socket (`…/live/ws` with the page's jwt), draws each frame on a canvas that
 * fills the window keeping the session's aspect ratio, and acknowledges each frame once drawn, so
 * the server sends the next only then. With a control link it sends the mouse (move, buttons,
 * double clicks, wheel) and the keyboard (keys with modifiers; text, any Unicode, through a
 * hidden text field, so dead keys, input methods and paste work) in the session's coordinates.
 * A blip (the socket closes for another reason than an ended session or an expired link) is
 * followed by a reconnect, waiting longer each time up to 5 s.
 */
export function liveViewer(): void {
  const CLOSE_EXPIRED = 4401;
  const CLOSE_ENDED = 4404;
  const CLOSE_TOO_MANY = 4429;
  const MAX_TEXT = 4096;
  const canvas = document.getElementById('screen') as HTMLCanvasElement;
  const status = document.getElementById('status') as HTMLElement;
  const badge = document.getElementById('badge') as HTMLElement;
  const keys = document.getElementById('keys') as HTMLTextAreaElement;
  const context = canvas.getContext('2d') as CanvasRenderingContext2D;
  const jwt = new URLSearchParams(location.search).get('jwt') ?? '';
  const socketUrl = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${location.pathname.replace(/\/$/, '')}/ws?jwt=${encodeURIComponent(jwt)}`;
  let socket: WebSocket | undefined;
  let mode = 'read';
  let viewport = { width: 0, height: 0 };
  let frames = 0;
  let retryMs = 250;
  let isFinal = false;
  let hasInput = false;
  /** Where the picture is drawn in the canvas, in CSS pixels. */
  let drawn = { x: 0, y: 0, width: 0, height: 0 };
  let lastBitmap: ImageBitmap | undefined;

  const show = (text: string, isError = false) => {
    status.textContent = text;
    status.hidden = text === '';
    status.className = isError ? 'error' : '';
  };

  const send = (message: unknown) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };

  const sendSize = () => {
    const ratio = window.devicePixelRatio || 1;
    send({
      type: 'size',
      width: Math.round(window.innerWidth * ratio),
      height: Math.round(window.innerHeight * ratio),
    });
  };

  const layout = () => {
    const ratio = window.devicePixelRatio || 1;
    const width = window.innerWidth;
    const height = window.innerHeight;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    if (viewport.width > 0 && viewport.height > 0) {
      const scale = Math.min(width / viewport.width, height / viewport.height);
      const w = viewport.width * scale;
      const h = viewport.height * scale;
      drawn = { x: (width - w) / 2, y: (height - h) / 2, width: w, height: h };
    }
    if (lastBitmap) paint(lastBitmap);
  };

  const paint = (bitmap: ImageBitmap) => {
    const ratio = window.devicePixelRatio || 1;
    context.fillStyle = '#111';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(
      bitmap,
      drawn.x * ratio,
      drawn.y * ratio,
      drawn.width * ratio,
      drawn.height * ratio,
    );
  };

  const onFrame = async (data: ArrayBuffer) => {
    const length = new DataView(data).getUint32(0);
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(data, 4, length))) as {
      seq: number;
      width: number;
      height: number;
      mime: string;
    };
    if (header.width !== viewport.width || header.height !== viewport.height) {
      viewport = { width: header.width, height: header.height };
      layout();
    }
    const picture = new Blob([new Uint8Array(data, 4 + length)], { type: header.mime });
    try {
      const bitmap = await createImageBitmap(picture);
      lastBitmap?.close();
      lastBitmap = bitmap;
      paint(bitmap);
      frames += 1;
      canvas.dataset.frames = String(frames);
      canvas.dataset.seq = String(header.seq);
    } finally {
      send({ type: 'ack', seq: header.seq });
    }
  };

  /** A point of the window in the session's CSS pixels. */
  const pointOf = (event: MouseEvent) => ({
    x: ((event.clientX - drawn.x) / (drawn.width || 1)) * viewport.width,
    y: ((event.clientY - drawn.y) / (drawn.height || 1)) * viewport.height,
  });

  const modifiersOf = (event: MouseEvent | KeyboardEvent) =>
    (event.altKey ? 1 : 0) |
    (event.ctrlKey ? 2 : 0) |
    (event.metaKey ? 4 : 0) |
    (event.shiftKey ? 8 : 0);

  const BUTTONS = ['left', 'middle', 'right', 'back', 'forward'];

  const enableInput = () => {
    if (hasInput) return;
    hasInput = true;
    document.body.classList.add('control');
    let pendingMove: MouseEvent | undefined;
    canvas.addEventListener('mousemove', (event) => {
      // One move per animation frame: the newest position, not a backlog of them.
      if (!pendingMove) {
        requestAnimationFrame(() => {
          const move = pendingMove as MouseEvent;
          pendingMove = undefined;
          send({
            type: 'mouse',
            event: 'move',
            ...pointOf(move),
            button: 'none',
            clickCount: 0,
            modifiers: modifiersOf(move),
          });
        });
      }
      pendingMove = event;
    });
    const button = (kind: 'down' | 'up') => (event: MouseEvent) => {
      event.preventDefault();
      keys.focus({ preventScroll: true });
      send({
        type: 'mouse',
        event: kind,
        ...pointOf(event),
        button: BUTTONS[event.button] ?? 'left',
        clickCount: Math.min(3, Math.max(1, event.detail)),
        modifiers: modifiersOf(event),
      });
    };
    canvas.addEventListener('mousedown', button('down'));
    canvas.addEventListener('mouseup', button('up'));
    canvas.addEventListener('contextmenu', (event) => event.preventDefault());
    canvas.addEventListener(
      'wheel',
      (event) => {
        event.preventDefault();
        const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? viewport.height : 1;
        send({
          type: 'wheel',
          ...pointOf(event),
          deltaX: Math.max(-10000, Math.min(10000, event.deltaX * unit)),
          deltaY: Math.max(-10000, Math.min(10000, event.deltaY * unit)),
          modifiers: modifiersOf(event),
        });
      },
      { passive: false },
    );
    const sentDown = new Set<string>();
    keys.addEventListener('keydown', (event) => {
      if (event.isComposing) return;
      const isText =
        [...event.key].length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
      const isPaste = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v';
      // Characters arrive as text (input event), a paste as the pasted text: not as keys.
      if (isText || isPaste) return;
      event.preventDefault();
      sentDown.add(event.key);
      send({ type: 'key', event: 'down', key: event.key, modifiers: modifiersOf(event) });
    });
    keys.addEventListener('keyup', (event) => {
      if (!sentDown.delete(event.key)) return;
      event.preventDefault();
      send({ type: 'key', event: 'up', key: event.key, modifiers: modifiersOf(event) });
    });
    const sendText = (text: string) => {
      for (let start = 0; start < text.length; start += MAX_TEXT) {
        send({ type: 'text', text: text.slice(start, start + MAX_TEXT) });
      }
    };
    keys.addEventListener('input', (event) => {
      if ((event as InputEvent).isComposing) return;
      if (keys.value !== '') sendText(keys.value);
      keys.value = '';
    });
    keys.addEventListener('compositionend', () => {
      if (keys.value !== '') sendText(keys.value);
      keys.value = '';
    });
    keys.addEventListener('paste', (event) => {
      event.preventDefault();
      sendText(event.clipboardData?.getData('text/plain') ?? '');
    });
    keys.focus({ preventScroll: true });
  };

  const connect = () => {
    const opened = new WebSocket(socketUrl);
    socket = opened;
    opened.binaryType = 'arraybuffer';
    opened.addEventListener('open', () => {
      retryMs = 250;
      sendSize();
    });
    opened.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') {
        void onFrame(event.data as ArrayBuffer);
        // The screen is back (after connecting, or reconnecting): the status line goes.
        if (!status.hidden) show('');
        return;
      }
      const message = JSON.parse(event.data) as {
        type: string;
        mode?: string;
        viewport?: { width: number; height: number };
        code?: number;
        reason?: string;
      };
      if (message.type === 'viewport') {
        viewport = message.viewport ?? viewport;
        layout();
        return;
      }
      if (message.type === 'hello') {
        mode = message.mode ?? 'read';
        viewport = message.viewport ?? viewport;
        badge.textContent = mode === 'control' ? 'Live · control' : 'Live · view only';
        badge.hidden = false;
        layout();
        if (mode === 'control') enableInput();
      }
    });
    opened.addEventListener('close', (event) => {
      if (socket !== opened) return;
      socket = undefined;
      if (event.code === CLOSE_ENDED) {
        isFinal = true;
        show('This browser session has ended.', true);
      } else if (event.code === CLOSE_EXPIRED || event.code === 1008) {
        isFinal = true;
        show(event.reason || 'This live view link has expired.', true);
      } else if (event.code === CLOSE_TOO_MANY) {
        isFinal = true;
        show(event.reason || 'This session has too many viewers.', true);
      }
      if (isFinal) {
        badge.hidden = true;
        document.body.classList.remove('control');
        return;
      }
      show('Reconnecting…');
      setTimeout(connect, retryMs);
      retryMs = Math.min(5000, retryMs * 2);
    });
  };

  window.addEventListener('resize', () => {
    layout();
    sendSize();
  });
  layout();
  show('Connecting…');
  connect();
}
