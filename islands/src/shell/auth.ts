// The header's Login button or user menu. With no token kept nobody is
// signed in, and the page loads nothing more: the static Login button and
// the tab bar's Profile link to /login stay. With a token, the head's
// inline script has marked <html data-auth="pending"> (the Login button is
// hidden, its space kept) and the user menu, a React entry whose URL the
// header names (data-user-menu-src; a script element, not import(), so the
// shell shares no chunk with the islands), takes over once the
// current-user call settles, so the header never flashes Login.
export const pendingAttr = "data-auth";

export function initAuth() {
  let token: string | null = null;
  try {
    token = localStorage.getItem("auth_token");
  } catch {
    // storage disabled: signed out
  }
  if (!token) {
    document.documentElement.removeAttribute(pendingAttr);
    return;
  }
  const src = document.querySelector("[data-auth-slot]")?.getAttribute("data-user-menu-src");
  if (!src) {
    document.documentElement.removeAttribute(pendingAttr);
    return;
  }
  const script = document.createElement("script");
  script.type = "module";
  script.src = src;
  script.onerror = () => document.documentElement.removeAttribute(pendingAttr);
  document.head.append(script);
}
