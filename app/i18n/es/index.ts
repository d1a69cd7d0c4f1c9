import { common } from "./common";
import { home } from "./home";

/** The Spanish catalog is the source of truth: its shape is the type every locale must fill. */
export const es = { common, home };
export type Messages = typeof es;
