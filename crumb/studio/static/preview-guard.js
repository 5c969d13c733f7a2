// Runs first in every game page the Studio's preview serves (crumb/studio/preview.py says why).
// Everything it uses is captured before the game's own scripts run, so a game cannot patch it away.
(() => {
  const apply = Reflect.apply, drop = Reflect.deleteProperty, includes = String.prototype.includes,
        starts = String.prototype.startsWith, lower = String.prototype.toLowerCase, Refused = TypeError;
  // WebRTC is the one channel the page's CSP cannot close: take its constructors out of this realm.
  for (const name of Object.getOwnPropertyNames(self)) {
    if (apply(starts, name, ["RTC"]) || apply(starts, name, ["webkitRTC"])) drop(self, name);
  }
  // No other realm: a srcdoc frame, a document.write()n frame or a javascript: URL would start a fresh one.
  const refuse = (what) => { throw new Refused("the Studio's preview refuses " + what + " (it would escape its WebRTC guard)"); };
  if (self.trustedTypes) {
    self.trustedTypes.createPolicy("default", {
      createHTML(html, type, sink) {
        if (apply(includes, sink, ["srcdoc"]) || apply(includes, sink, ["write"])) refuse(sink);
        if (apply(includes, apply(lower, html, []), ["srcdoc"])) refuse("srcdoc frames");
        return html;
      },
      createScript(script, type, sink) {
        if (apply(includes, sink, ["Location"])) refuse("javascript: URLs");
        return script;
      },
      createScriptURL(url) { return url; },
    });
  }
})();
