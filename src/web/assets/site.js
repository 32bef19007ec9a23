// Suggestions under the search box as one types, from /api/v1/suggest.
(() => {
  const form = document.querySelector("form[data-suggest]");
  const input = form?.querySelector("input[name=q]");
  if (!input) return;
  const list = document.createElement("ul");
  list.className = "suggestions";
  list.id = "suggestions";
  list.hidden = true;
  list.setAttribute("aria-label", "Suggested plugins");
  input.parentNode.appendChild(list);
  input.setAttribute("aria-controls", "suggestions");
  input.setAttribute("autocomplete", "off");
  const status = document.createElement("p");
  status.className = "hidden";
  status.setAttribute("role", "status");
  form.appendChild(status);
  let timer = 0,
    asked = "";
  const close = () => {
    list.hidden = true;
    list.textContent = "";
  };
  const show = (items) => {
    list.textContent = "";
    items.forEach((item) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      const parts = item.id.split("/");
      a.href = `/plugin/${encodeURIComponent(parts[0])}/${encodeURIComponent(parts[1])}`;
      a.textContent = item.id;
      if (item.description) {
        const small = document.createElement("small");
        small.textContent = item.description.length > 120 ? `${item.description.slice(0, 117)}…` : item.description;
        a.appendChild(small);
      }
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = items.length === 0;
    status.textContent = items.length ? `${items.length} suggestions; press the down arrow to reach them.` : "";
  };
  const ask = () => {
    const q = input.value.trim();
    if (q === asked) return;
    asked = q;
    if (!q) return close();
    fetch(`/api/v1/suggest?q=${encodeURIComponent(q)}`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        if (body && input.value.trim() === q) show(body.data.items);
      })
      .catch(() => {});
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(ask, 150);
  });
  document.addEventListener("click", (e) => {
    if (!form.contains(e.target)) close();
  });
})();
// The keyboard among the suggestions: down from the box into them, up and down between them, Escape out.
(() => {
  const input = document.querySelector("form[data-suggest] input[name=q]");
  const list = document.getElementById("suggestions");
  if (!input || !list) return;
  const close = () => {
    list.hidden = true;
    list.textContent = "";
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" && !list.hidden && list.firstChild) {
      e.preventDefault();
      list.querySelector("a").focus();
    }
    if (e.key === "Escape") close();
  });
  list.addEventListener("keydown", (e) => {
    const links = Array.prototype.slice.call(list.querySelectorAll("a"));
    const at = links.indexOf(document.activeElement);
    if (e.key === "ArrowDown" && at < links.length - 1) {
      e.preventDefault();
      links[at + 1].focus();
    }
    if (e.key === "ArrowUp") {
      e.preventDefault();
      (at > 0 ? links[at - 1] : input).focus();
    }
    if (e.key === "Escape") {
      close();
      input.focus();
    }
  });
})();
// A Copy button under each command meant to be copied.
Array.prototype.forEach.call(document.querySelectorAll("pre[data-copy]"), (pre) => {
  if (!navigator.clipboard) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.textContent = "Copy";
  const label = pre.getAttribute("data-copy");
  button.setAttribute("aria-label", `Copy ${label}`);
  const said = document.createElement("span");
  said.className = "hidden";
  said.setAttribute("role", "status");
  button.addEventListener("click", () => {
    navigator.clipboard.writeText(pre.textContent).then(
      () => {
        button.textContent = "Copied";
        button.setAttribute("aria-label", `Copied ${label}`);
        said.textContent = "Copied to the clipboard.";
      },
      () => {
        said.textContent = "Copying failed; select the text instead.";
      },
    );
  });
  pre.parentNode.appendChild(button);
  pre.parentNode.appendChild(said);
});
