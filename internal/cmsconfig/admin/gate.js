// The editors' sign-in gate: before Decap loads, ask the CMS backend who
// the reader is (the action "info", RegPulse's own: Decap sends none).
// Not signed in (401): to the sign-in page, coming back here. Signed in
// without an editor's or reviewer's role (403): say so. Otherwise load
// Decap, whose requests to /api/cms carry the site's sign-in token as
// every API call does (Decap's proxy backend sends none of its own).
(function () {
  "use strict";
  var endpoint = "/api/cms";
  var tokenKey = "auth_token"; // islands/src/lib/token.ts
  var message = document.getElementById("gate-message");

  function token() {
    try {
      return localStorage.getItem(tokenKey);
    } catch (e) {
      return null;
    }
  }

  function say(text, link) {
    message.textContent = text;
    if (link) {
      message.appendChild(document.createTextNode(" "));
      var a = document.createElement("a");
      a.href = link.href;
      a.textContent = link.text;
      message.appendChild(a);
    }
  }

  function signIn() {
    window.location.replace("/login?next=" + encodeURIComponent("/admin/"));
  }

  // Every request to the backend carries the token.
  var plainFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    var url = typeof input === "string" ? input : input && input.url;
    var t = token();
    if (t && url && new URL(url, window.location.href).href === new URL(endpoint, window.location.href).href) {
      init = Object.assign({}, init);
      var headers = new Headers(init.headers || (typeof input === "string" ? undefined : input.headers));
      headers.set("Authorization", "Bearer " + t);
      init.headers = headers;
    }
    return plainFetch(input, init);
  };

  // Asked even without a token: `regpulse cms` on an editor's own
  // machine answers without a sign-in.
  window
    .fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action: "info", params: {} }),
    })
    .then(function (res) {
      if (res.status === 401) {
        signIn();
        return;
      }
      if (res.status === 403) {
        say(
          "This account is not an editor or a reviewer. The site's operator grants the role (regpulse users cms-role USERNAME editor|reviewer); ask them, then reload this page.",
          { href: "/", text: "Back to RegPulse" },
        );
        return;
      }
      if (!res.ok) {
        return res
          .json()
          .catch(function () {
            return {};
          })
          .then(function (body) {
            say("The editors' backend did not answer (" + res.status + (body && body.error ? ": " + body.error : "") + "). Try again later.");
          });
      }
      // Signed in already: Decap's proxy backend would ask for a click
      // on its own "Login" first unless it finds its user kept.
      try {
        localStorage.setItem("decap-cms-user", JSON.stringify({ backendName: "proxy" }));
      } catch (e) {
        // storage disabled: Decap shows its Login button
      }
      var gate = document.getElementById("gate");
      var s = document.createElement("script");
      s.src = "/admin/decap-cms.js";
      s.onload = function () {
        gate.remove();
      };
      s.onerror = function () {
        say("The editor could not be loaded (/admin/decap-cms.js). Try again later.");
      };
      document.head.appendChild(s);
    })
    .catch(function () {
      say("The editors' backend cannot be reached. Check your connection and reload this page.");
    });
})();
