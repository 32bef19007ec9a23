/**
 * GET /assets/{file}: the pages' one stylesheet and one script, served from this service (the
 * pages' policy loads nothing else). The script only adds to pages that work without it: the
 * typeahead under the search box and a copy button beside each install command.
 */

import { fixedRoute } from "../http/answer";
import { acceptsGzip, type Rendered, ResponseCache, render } from "../http/cache";
import { notFound } from "../http/errors";
import type { RouteDoc } from "../http/openapi";
import { TextSchema } from "../http/wireschemas";

const ASSET_CACHE_CONTROL = "public, max-age=3600";

const SITE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;margin:0;color:#1b1b1b;background:#fff;overflow-wrap:anywhere;word-break:break-word}
.wrap{max-width:64rem;margin:0 auto;padding:0 1rem}
a{color:#0b57d0}a:hover{color:#08409a}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}.skip:focus{left:.5rem}
.hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
header.site{border-bottom:1px solid #d0d7de;background:#f6f8fa}
header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding-top:.75rem;padding-bottom:.75rem}
header.site .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:#1b1b1b}
form.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;flex:1 1 20rem;position:relative}
form.search .field{display:flex;flex-direction:column;flex:1 1 12rem;min-width:0}
label{font-size:.9rem;font-weight:600}
input[type=search],select{font:inherit;padding:.45rem .6rem;border:1px solid #6e7781;border-radius:6px;background:#fff;color:#1b1b1b;min-width:0;max-width:100%}
button{font:inherit;padding:.45rem .9rem;border:1px solid #0b57d0;border-radius:6px;background:#0b57d0;color:#fff;cursor:pointer;white-space:nowrap;word-break:normal;overflow-wrap:normal;flex:none}
button.secondary{background:#fff;color:#0b57d0}
.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:1rem 0}
.filters .field{display:flex;flex-direction:column;flex:1 1 9rem;min-width:0}
.filters select{width:100%}
.check{display:flex;gap:.4rem;align-items:center;font-weight:400}
main{padding-top:1rem;padding-bottom:2rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
ul.plugins{list-style:none;padding:0;margin:0}
ul.plugins>li{padding:.75rem 0;border-bottom:1px solid #d8dee4}
ul.plugins h3{font-size:1.05rem;margin:0}
ul.plugins p{margin:.2rem 0;color:#3d444d}
.meta{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.9rem;color:#4b535c;margin:.2rem 0;padding:0;list-style:none}
.tags{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0;margin:.4rem 0}
.tags li a,.tags li span{display:inline-block;padding:.1rem .55rem;border-radius:1rem;background:#eef2f7;font-size:.85rem;text-decoration:none;color:#1f3b63}
.note{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:.5rem .75rem}
.empty{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:1rem}
nav.pages{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:1.5rem 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;min-width:0}
dl.stats{display:flex;flex-wrap:wrap;gap:1.5rem;margin:1rem 0}
dl.stats div{display:flex;flex-direction:column-reverse}dl.stats dd{margin:0;font-size:1.6rem;font-weight:600}
.install{border:1px solid #d0d7de;border-radius:6px;padding:.5rem .75rem;margin:.75rem 0}
.install h3{font-size:1rem;margin:.25rem 0}
.command{display:flex;gap:.5rem;align-items:flex-start}
pre{background:#f6f8fa;border-radius:6px;padding:.6rem .75rem;margin:.25rem 0;white-space:pre-wrap;overflow-wrap:anywhere;word-break:normal;flex:1 1 auto;min-width:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
.flag{display:inline-block;padding:.1rem .5rem;border-radius:4px;background:#ffebe9;color:#82071e;font-size:.85rem;margin:.1rem .25rem .1rem 0}
.suggestions{position:absolute;top:100%;left:0;right:0;z-index:10;background:#fff;border:1px solid #6e7781;border-radius:6px;margin:.25rem 0 0;padding:.25rem 0;list-style:none;box-shadow:0 4px 12px rgba(0,0,0,.15)}
.suggestions a{display:block;padding:.35rem .75rem;text-decoration:none;color:#1b1b1b}
.suggestions a:hover,.suggestions a:focus{background:#eef2f7}
.suggestions small{display:block;color:#4b535c}
footer.site{border-top:1px solid #d0d7de;color:#4b535c;font-size:.9rem;padding:1rem 0 2rem}
nav.links ul{display:flex;flex-wrap:wrap;gap:.5rem 1rem;list-style:none;padding:0}
@media (max-width:40rem){h1{font-size:1.35rem}dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.4rem}}
`;

const SITE_JS = `"use strict";
(function () {
  var form = document.querySelector("form[data-suggest]");
  var input = form && form.querySelector("input[name=q]");
  if (input) {
    var list = document.createElement("ul");
    list.className = "suggestions";
    list.id = "suggestions";
    list.hidden = true;
    list.setAttribute("aria-label", "Suggested plugins");
    input.parentNode.appendChild(list);
    input.setAttribute("aria-controls", "suggestions");
    input.setAttribute("autocomplete", "off");
    var status = document.createElement("p");
    status.className = "hidden";
    status.setAttribute("role", "status");
    form.appendChild(status);
    var timer = 0, asked = "";
    var close = function () { list.hidden = true; list.textContent = ""; };
    var show = function (items) {
      list.textContent = "";
      items.forEach(function (item) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        var parts = item.id.split("/");
        a.href = "/plugin/" + encodeURIComponent(parts[0]) + "/" + encodeURIComponent(parts[1]);
        a.textContent = item.id;
        if (item.description) {
          var small = document.createElement("small");
          small.textContent = item.description.length > 120 ? item.description.slice(0, 117) + "…" : item.description;
          a.appendChild(small);
        }
        li.appendChild(a);
        list.appendChild(li);
      });
      list.hidden = items.length === 0;
      status.textContent = items.length ? items.length + " suggestions; press the down arrow to reach them." : "";
    };
    var ask = function () {
      var q = input.value.trim();
      if (q === asked) return;
      asked = q;
      if (!q) return close();
      fetch("/api/v1/suggest?q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (body) { if (body && input.value.trim() === q) show(body.data.items); })
        .catch(function () {});
    };
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(ask, 150); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && !list.hidden && list.firstChild) { e.preventDefault(); list.querySelector("a").focus(); }
      if (e.key === "Escape") close();
    });
    list.addEventListener("keydown", function (e) {
      var links = Array.prototype.slice.call(list.querySelectorAll("a"));
      var at = links.indexOf(document.activeElement);
      if (e.key === "ArrowDown" && at < links.length - 1) { e.preventDefault(); links[at + 1].focus(); }
      if (e.key === "ArrowUp") { e.preventDefault(); (at > 0 ? links[at - 1] : input).focus(); }
      if (e.key === "Escape") { close(); input.focus(); }
    });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) close(); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("pre[data-copy]"), function (pre) {
    if (!navigator.clipboard) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = "Copy";
    var label = pre.getAttribute("data-copy");
    button.setAttribute("aria-label", "Copy " + label);
    var said = document.createElement("span");
    said.className = "hidden";
    said.setAttribute("role", "status");
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(pre.textContent).then(
        function () {
          button.textContent = "Copied";
          button.setAttribute("aria-label", "Copied " + label);
          said.textContent = "Copied to the clipboard.";
        },
        function () { said.textContent = "Copying failed; select the text instead."; }
      );
    });
    pre.parentNode.appendChild(button);
    pre.parentNode.appendChild(said);
  });
})();
`;

const ASSETS: Record<string, { type: string; text: string }> = {
  "site.css": { type: "text/css; charset=utf-8", text: SITE_CSS },
  "site.js": { type: "text/javascript; charset=utf-8", text: SITE_JS },
};

export const assetDoc: RouteDoc = {
  tag: "Pages",
  summary: "The HTML pages' stylesheet or script",
  description: `One of ${Object.keys(ASSETS).join(", ")}; the pages work without the script.`,
  body: TextSchema,
  type: [...new Set(Object.values(ASSETS).map((asset) => asset.type.split(";")[0]!))],
  cached: "static",
  more: { 404: { description: "No such asset.", message: notFound("Asset logo.svg").message } },
};

export function assetHandlers() {
  const cache = new ResponseCache(1024 * 1024);
  const made = (file: string) => (): Rendered => render(ASSETS[file]!.text, ASSETS[file]!.type, ASSET_CACHE_CONTROL);
  return {
    asset: fixedRoute((request, { file }: { file: string }) => {
      if (!Object.hasOwn(ASSETS, file)) throw notFound(`Asset ${file}`);
      return cache.get(file, made(file), acceptsGzip(request.headers.get("accept-encoding"))).rendered;
    }),
  };
}
