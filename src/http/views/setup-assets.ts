// The setup page's stylesheet and script, served from our own origin (/setup/assets/…) so the
// page runs under helmet's strict Content-Security-Policy (script-src 'self') without inline
// code or a nonce, and loads nothing from a CDN.
import { createHash } from 'node:crypto';

export const SETUP_CSS = `
:root{color-scheme:light dark;--fg:#1d232a;--muted:#5b6570;--bg:#fff;--card:#f4f6f8;--line:#d5dbe1;--accent:#1f6feb;--warn:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9aa5b1;--bg:#0d1117;--card:#161b22;--line:#30363d;--accent:#58a6ff;--warn:#d29922}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:52rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{margin:.2rem 0;font-size:1.8rem;overflow-wrap:anywhere}
h2{margin:2rem 0 .6rem;font-size:1.25rem;border-bottom:1px solid var(--line);padding-bottom:.3rem}
h3{margin:0;font-size:.9rem;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.brand{margin:0;color:var(--muted);font-weight:600}
.meta{margin:.2rem 0;color:var(--muted)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
pre{margin:0;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;overflow:auto;white-space:pre}
.copyable{position:relative;margin:.6rem 0}
.copyable pre{padding-right:5rem;white-space:pre-wrap;overflow-wrap:anywhere}
.copyable .buttons{position:absolute;top:.4rem;right:.4rem;display:flex;gap:.3rem}
.docs-nav{margin:.3rem 0;font-size:.95rem}
meter{width:100%;height:.8rem;margin:.3rem 0 .1rem}
.chart .value{fill:var(--fg);font-size:9px}
.chart .axis-title{fill:var(--muted);font-size:10px;font-weight:600}
button{font:inherit;font-size:.85rem;padding:.2rem .7rem;border:1px solid var(--line);border-radius:5px;background:var(--bg);color:var(--fg);cursor:pointer}
button:hover{border-color:var(--accent)}
.note{color:var(--warn);font-size:.95rem}
form label{display:block;margin:.6rem 0 .2rem;font-weight:600}
form input{font:inherit;width:100%;max-width:28rem;padding:.35rem .5rem;border:1px solid var(--line);border-radius:5px;background:var(--bg);color:var(--fg)}
form button{margin-top:.8rem}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.error{border:1px solid var(--warn);border-radius:6px;padding:.4rem 1rem;color:var(--warn)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:.8rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem}
.card p{margin:.2rem 0;color:var(--muted);font-size:.92rem}
.card .num{margin:.1rem 0;color:var(--fg);font-size:2rem;font-weight:650;font-variant-numeric:tabular-nums}
.chart{margin:1rem 0 0}
.chart svg{width:100%;height:auto;display:block;background:var(--card);border:1px solid var(--line);border-radius:8px}
.chart .bar{fill:var(--accent)}
.chart .bar.zero{fill:var(--line)}
.chart .axis{stroke:var(--line)}
.chart .label{fill:var(--muted);font-size:10px}
figcaption{color:var(--muted);font-size:.9rem;margin-top:.3rem}
table.days{border-collapse:collapse;margin-top:.4rem;font-variant-numeric:tabular-nums}
table.days td,table.days th{padding:.1rem .8rem .1rem 0;text-align:left}
dl.limits{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.2rem;margin:0}
dl.limits dt{color:var(--muted)}
dl.limits dd{margin:0;font-variant-numeric:tabular-nums}
a{color:var(--accent)}
table.errors{border-collapse:collapse;width:100%;font-size:.92rem}
table.errors th,table.errors td{border-bottom:1px solid var(--line);padding:.4rem .6rem .4rem 0;text-align:left;vertical-align:top}
table.errors tr:target{background:var(--card)}
.local{color:var(--muted)}
`;

// Runs once the document is parsed (defer). First it takes the key out of the address bar, so
// it does not stay in history, bookmarks, synced tabs or a shared screen.
export const SETUP_JS = `'use strict';
(function () {
  if (location.search) history.replaceState(null, '', location.pathname + location.hash);

  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var target = document.getElementById(button.getAttribute('data-copy'));
    if (!target) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = target.textContent || '';
      var done = function (label) {
        button.textContent = label;
        setTimeout(function () { button.textContent = 'Copy'; }, 1500);
      };
      var selectIt = function () {
        var range = document.createRange();
        range.selectNodeContents(target);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        done('Selected: press Ctrl+C');
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { done('Copied'); }, selectIt);
      else selectIt();
    });
  });

  // The key is masked on screen until asked for; Copy still copies the whole key.
  document.querySelectorAll('button[data-reveal]').forEach(function (button) {
    var full = document.getElementById(button.getAttribute('data-reveal'));
    var masked = document.getElementById(button.getAttribute('data-reveal') + '-masked');
    if (!full || !masked) return;
    var show = function (revealed) {
      full.hidden = !revealed;
      masked.hidden = revealed;
      button.textContent = revealed ? 'Hide' : 'Reveal';
      button.setAttribute('aria-pressed', String(revealed));
    };
    show(false);
    button.hidden = false;
    button.addEventListener('click', function () { show(full.hidden); });
  });

  // Reset times are rendered in UTC; add the reader's local time beside them.
  document.querySelectorAll('time[data-local]').forEach(function (t) {
    var d = new Date(t.getAttribute('datetime'));
    if (isNaN(d.getTime())) return;
    var span = document.createElement('span');
    span.className = 'local';
    span.textContent = ' (' + d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) + ' your time)';
    t.after(span);
  });
})();
`;

/** Short content hashes: the asset URLs change when the content does, so they can be cached long. */
const version = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 10);
export const SETUP_CSS_PATH = `/setup/assets/setup.${version(SETUP_CSS)}.css`;
export const SETUP_JS_PATH = `/setup/assets/setup.${version(SETUP_JS)}.js`;
