// A Radix dialog opened from the page's state has no Dialog.Trigger, so on closing it sends focus to the
// page's start. Given as a dialog content's onOpenAutoFocus and onCloseAutoFocus, these send it back to the
// control that opened the dialog (found again by its id if the page drew it anew meanwhile).
const openers = new WeakMap();

export function rememberOpener(event) {
  const opener = document.activeElement;
  if (opener && opener !== document.body && !event.currentTarget.contains(opener)) {
    openers.set(event.currentTarget, { element: opener, id: opener.id });
  }
}

export function returnFocusToOpener(event) {
  const opener = openers.get(event.currentTarget);
  const element = opener?.element.isConnected ? opener.element : opener?.id && document.getElementById(opener.id);
  if (element) {
    event.preventDefault();
    element.focus();
  }
}
