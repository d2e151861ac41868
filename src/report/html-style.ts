/** Inline style and script of the HTML report (the CSP allows inline only; nothing is fetched). */
export const HTML_STYLE = `
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --error: #9a6700; --line: #d0d7de; --code: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --line: #30363d; --code: #161b22; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 1.5rem; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
.banner { border-radius: 8px; padding: 1rem 1.25rem; color: #fff; }
.banner.pass { background: var(--pass); } .banner.fail { background: var(--fail); } .banner.warn { background: #8a5a00; }
.banner h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
.banner p { margin: .1rem 0; overflow-wrap: anywhere; }
.summary { display: flex; gap: .75rem; flex-wrap: wrap; margin: 1rem 0; }
.count { border: 1px solid var(--line); border-radius: 6px; padding: .35rem .75rem; }
.count strong { font-size: 1.2rem; margin-right: .3rem; }
.toolbar { display: flex; gap: .75rem; align-items: center; margin: .5rem 0 1rem; }
button { font: inherit; padding: .2rem .7rem; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: inherit; cursor: pointer; }
details.check { border: 1px solid var(--line); border-radius: 6px; margin: .35rem 0; }
details.check > summary { cursor: pointer; padding: .45rem .75rem; display: flex; gap: .6rem; align-items: baseline; flex-wrap: wrap; }
details.check[open] > summary { border-bottom: 1px solid var(--line); }
.check-body { padding: .5rem 1rem 1rem; }
.badge { display: inline-block; min-width: 3.6rem; text-align: center; border-radius: 4px; color: #fff; font-size: .75rem; font-weight: 700; padding: .05rem .4rem; text-transform: uppercase; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.skip { background: var(--skip); } .badge.error { background: var(--error); } .badge.untested { background: var(--error); }
.badge.waived { background: var(--error); } .waiver { color: var(--error); }
.check-id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 600; }
.check-title { font-weight: 600; }
.check-message { flex: 1 1 20rem; color: inherit; opacity: .85; overflow-wrap: anywhere; white-space: pre-wrap; }
.duration { opacity: .6; font-size: .85rem; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .75rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
h2 { margin-top: 2rem; } h3 { font-size: 1rem; margin: 1rem 0 .35rem; }
table { border-collapse: collapse; width: 100%; margin: .35rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.bad td { background: color-mix(in srgb, var(--fail) 12%, transparent); }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
.exchange { margin-bottom: .75rem; }
.warning { color: var(--error); }
.hidden { display: none; }
footer { margin-top: 2rem; opacity: .7; font-size: .85rem; }
`;

/** Expand/collapse all and "only problems"; works without it too (plain <details>). */
export const HTML_SCRIPT = `
(function () {
  var checks = Array.prototype.slice.call(document.querySelectorAll('details.check'));
  function setAll(open) { checks.forEach(function (d) { d.open = open; }); }
  document.getElementById('expand-all').addEventListener('click', function () { setAll(true); });
  document.getElementById('collapse-all').addEventListener('click', function () { setAll(false); });
  document.getElementById('only-problems').addEventListener('change', function (e) {
    var only = e.target.checked;
    checks.forEach(function (d) {
      var status = d.getAttribute('data-status');
      d.classList.toggle('hidden', only && status !== 'fail' && status !== 'error' && status !== 'untested');
    });
  });
  var target = location.hash && document.getElementById(location.hash.slice(1));
  if (target && target.tagName === 'DETAILS') target.open = true;
})();
`;
