// The sign-in token kept in localStorage: apart from the API client so
// an island can tell, before loading the client, whether anyone is signed
// in (the head's inline script reads the same key).

// tokenKey is where the sign-in token is kept.
export const tokenKey = "auth_token";

export function getToken(): string | null {
  try {
    return localStorage.getItem(tokenKey);
  } catch {
    return null;
  }
}

export function setToken(token: string | null) {
  try {
    if (token === null) localStorage.removeItem(tokenKey);
    else localStorage.setItem(tokenKey, token);
  } catch {
    // storage disabled: the session lasts as long as the page
  }
}
