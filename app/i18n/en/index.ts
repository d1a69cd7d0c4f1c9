import type { Messages } from "../es";
import { common } from "./common";
import { contact } from "./contact";
import { home } from "./home";
import { legal } from "./legal";

export const en: Messages = { common, home, legal, contact };
