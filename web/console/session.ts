// The key the user pasted, kept in this tab's sessionStorage only: never in a URL, a cookie or
// localStorage, so it ends with the tab and is not sent anywhere but the API's Authorization
// header.
const SLOT = 'ncd.console.key';

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(SLOT);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(SLOT, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(SLOT);
}
