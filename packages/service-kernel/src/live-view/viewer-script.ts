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
 * Above the picture: the session's tabs and address bar (back, forward, reload, an address, a
 * tab made active, opened or closed, from a control link), how many people watch, the socket's
 * round trip, and who drives: a control link may take control (the agent's input waits until
 * it is given back) and give it back; while another person holds it, this page sends nothing.
 * A blip (the socket closes for another reason than an ended session or an expired link) is
 * followed by a reconnect, waiting longer each time up to 5 s.
 */
export function liveViewer(): void {
  const CLOSE_EXPIRED = 4401;
  const CLOSE_ENDED = 4404;
  const CLOSE_TOO_MANY = 4429;
  const MAX_TEXT = 4096;
  const PING_MS = 2000;
  const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const canvas = element<HTMLCanvasElement>('screen');
  const stage = element<HTMLElement>('stage');
  const chrome = element<HTMLElement>('chrome');
  const status = element<HTMLElement>('status');
  const badge = element<HTMLElement>('badge');
  const keys = element<HTMLTextAreaElement>('keys');
  const tabStrip = element<HTMLElement>('tabs');
  const address = element<HTMLInputElement>('address');
  const viewersLabel = element<HTMLElement>('viewers');
  const latencyLabel = element<HTMLElement>('latency');
  const controlButton = element<HTMLButtonElement>('control');
  const banner = element<HTMLElement>('banner');
  const navButtons = ['back', 'forward', 'reload'].map((id) => element<HTMLButtonElement>(id));
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
  /** Who drives: nobody holds control ('agent'), this page ('you'), another person ('other'). */
  let control = 'agent';
  let notice = '';
  let pingId = 0;
  const pings = new Map<number, number>();
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

  /** Whether this page may drive now: a control link, and no other person holds control. */
  const canDrive = () => mode === 'control' && control !== 'other';

  /** Input and tab requests: sent only while this page may drive. */
  const sendInput = (message: unknown) => {
    if (canDrive()) send(message);
  };

  const showControl = () => {
    document.body.dataset.control = control;
    const isControl = mode === 'control';
    controlButton.hidden = !isControl;
    controlButton.disabled = control === 'other';
    controlButton.className = control === 'you' ? 'you' : '';
    controlButton.textContent =
      control === 'you'
        ? 'Give back control'
        : control === 'other'
          ? 'Another viewer has control'
          : 'Take control';
    const drive = canDrive();
    for (const button of navButtons) button.disabled = !drive;
    address.readOnly = !drive;
    const says =
      control === 'you'
        ? "You have control: the agent's input waits until you give it back."
        : control === 'other'
          ? 'Another viewer has control: the agent and this page wait.'
          : notice;
    banner.textContent = says;
    banner.className = control === 'you' ? 'you' : '';
    banner.hidden = says === '';
    layout();
  };

  type Tab = { id: string; url: string; title: string; active: boolean };

  const showTabs = (tabs: Tab[]) => {
    tabStrip.replaceChildren();
    for (const tab of tabs) {
      const item = document.createElement('div');
      item.className = tab.active ? 'tab active' : 'tab';
      item.title = tab.url;
      item.dataset.id = tab.id;
      const title = document.createElement('span');
      title.className = 'title';
      title.textContent = tab.title || tab.url || 'New tab';
      item.append(title);
      item.addEventListener('click', () =>
        sendInput({ type: 'tab', action: 'activate', id: tab.id }),
      );
      if (mode === 'control' && tabs.length > 1 && tab !== tabs[0]) {
        const close = document.createElement('button');
        close.className = 'close';
        close.type = 'button';
        close.title = 'Close tab';
        close.textContent = '×';
        close.addEventListener('click', (event) => {
          event.stopPropagation();
          sendInput({ type: 'tab', action: 'close', id: tab.id });
        });
        item.append(close);
      }
      tabStrip.append(item);
      if (tab.active && document.activeElement !== address) address.value = tab.url;
    }
    if (mode === 'control') {
      const open = document.createElement('button');
      open.type = 'button';
      open.id = 'new-tab';
      open.title = 'New tab';
      open.textContent = '+';
      open.addEventListener('click', () =>
        sendInput({ type: 'tab', action: 'open', url: 'about:blank' }),
      );
      tabStrip.append(open);
    }
    layout();
  };

  const sendSize = () => {
    const ratio = window.devicePixelRatio || 1;
    send({
      type: 'size',
      width: Math.max(1, Math.round(stage.clientWidth * ratio)),
      height: Math.max(1, Math.round(stage.clientHeight * ratio)),
    });
  };

  const layout = () => {
    const ratio = window.devicePixelRatio || 1;
    stage.style.top = `${chrome.offsetHeight}px`;
    const width = stage.clientWidth;
    const height = stage.clientHeight;
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
  const pointOf = (event: MouseEvent) => {
    const box = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left - drawn.x) / (drawn.width || 1)) * viewport.width,
      y: ((event.clientY - box.top - drawn.y) / (drawn.height || 1)) * viewport.height,
    };
  };

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
          sendInput({
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
      sendInput({
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
        sendInput({
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
      sendInput({ type: 'key', event: 'down', key: event.key, modifiers: modifiersOf(event) });
    });
    keys.addEventListener('keyup', (event) => {
      if (!sentDown.delete(event.key)) return;
      event.preventDefault();
      sendInput({ type: 'key', event: 'up', key: event.key, modifiers: modifiersOf(event) });
    });
    const sendText = (text: string) => {
      for (let start = 0; start < text.length; start += MAX_TEXT) {
        sendInput({ type: 'text', text: text.slice(start, start + MAX_TEXT) });
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
    const [back, forward, reload] = navButtons;
    back?.addEventListener('click', () => sendInput({ type: 'navigate', action: 'back' }));
    forward?.addEventListener('click', () => sendInput({ type: 'navigate', action: 'forward' }));
    reload?.addEventListener('click', () => sendInput({ type: 'navigate', action: 'reload' }));
    element<HTMLFormElement>('go').addEventListener('submit', (event) => {
      event.preventDefault();
      if (address.value.trim() !== '') sendInput({ type: 'navigate', url: address.value.trim() });
      keys.focus({ preventScroll: true });
    });
    controlButton.addEventListener('click', () => {
      if (control === 'other') return;
      send({ type: 'control', action: control === 'you' ? 'release' : 'take' });
    });
    keys.focus({ preventScroll: true });
  };

  // The round trip shown is a ping answered at once by the server; unanswered ones are forgotten.
  const ping = () => {
    if (socket?.readyState !== WebSocket.OPEN) return;
    pingId += 1;
    pings.set(pingId, performance.now());
    if (pings.size > 10) pings.delete(pings.keys().next().value as number);
    send({ type: 'ping', id: pingId });
  };

  const connect = () => {
    const opened = new WebSocket(socketUrl);
    socket = opened;
    opened.binaryType = 'arraybuffer';
    opened.addEventListener('open', () => {
      retryMs = 250;
      sendSize();
      ping();
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
        state?: string;
        count?: number;
        id?: number;
        tabs?: Tab[];
        message?: string;
      };
      if (message.type === 'pong') {
        const sentAt = pings.get(message.id ?? -1);
        pings.delete(message.id ?? -1);
        if (sentAt !== undefined) {
          const ms = Math.round(performance.now() - sentAt);
          latencyLabel.textContent = `${ms} ms`;
          latencyLabel.dataset.ms = String(ms);
        }
        return;
      }
      if (message.type === 'viewers') {
        const count = message.count ?? 0;
        viewersLabel.textContent = `${count} watching`;
        viewersLabel.dataset.count = String(count);
        return;
      }
      if (message.type === 'tabs') {
        showTabs(message.tabs ?? []);
        return;
      }
      if (message.type === 'control') {
        control = message.state ?? 'agent';
        notice = message.reason ?? '';
        showControl();
        return;
      }
      if (message.type === 'notice') {
        notice = message.message ?? '';
        showControl();
        return;
      }
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
        showControl();
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
  setInterval(ping, PING_MS);
  layout();
  show('Connecting…');
  connect();
}
