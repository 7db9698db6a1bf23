/**
 * The replay page's script, run in the viewer's browser: speed buttons and keys for the page's
 * video (seeking is the video's own controls, served with ranges). One self-contained function,
 * served as its own source text, like the live view's.
 */
export function replayPlayer(): void {
  const video = document.getElementById('video') as HTMLVideoElement;
  const speeds = document.getElementById('speeds') as HTMLElement;
  const status = document.getElementById('status') as HTMLElement;
  const RATES = [0.5, 1, 2, 4, 8];
  const setRate = (rate: number) => {
    video.playbackRate = rate;
    for (const button of speeds.querySelectorAll('button')) {
      button.classList.toggle('on', Number(button.dataset.rate) === rate);
    }
  };
  for (const rate of RATES) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = `${rate}×`;
    button.dataset.rate = String(rate);
    button.addEventListener('click', () => setRate(rate));
    speeds.append(button);
  }
  setRate(1);
  video.addEventListener('error', () => {
    status.textContent = 'The video could not be loaded. The link may have expired.';
    status.hidden = false;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === ' ') {
      event.preventDefault();
      if (video.paused) void video.play();
      else video.pause();
    } else if (event.key === 'ArrowRight') video.currentTime += 5;
    else if (event.key === 'ArrowLeft') video.currentTime = Math.max(0, video.currentTime - 5);
    else if (event.key === '>' || event.key === '<') {
      const index = RATES.indexOf(video.playbackRate) + (event.key === '>' ? 1 : -1);
      setRate(RATES[Math.min(RATES.length - 1, Math.max(0, index))] as number);
    }
  });
}
