export const toastAutohideMs = 5000;
