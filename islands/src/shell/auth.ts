// The header's Login button or user menu. With no token kept nobody is
// signed in, and the page loads nothing more: the static Login button and
// the tab bar's Profile link to /login stay. With a token, the head's
// inline script has marked <html data-auth="pending"> (the Login button is
// hidden, its space kept) and the user menu, a React chunk, takes over
// once the current-user call settles, so the header never flashes Login.
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
  import("./user-menu")
    .then((m) => m.mountUserMenu())
    .catch((err) => {
      console.error("user menu:", err);
      document.documentElement.removeAttribute(pendingAttr);
    });
}
