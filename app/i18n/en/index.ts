import type { Messages } from "../es";
import { common } from "./common";
import { home } from "./home";

export const en: Messages = { common, home };
