import type { ComponentType, ReactNode } from "react";
import type { LayoutName } from "../../lib/route-handle";
import { DefaultLayout } from "./default-layout";

function BareLayout({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/** Layouts by name; a route that names none gets "default". */
export const layouts: Record<LayoutName, ComponentType<{ children: ReactNode }>> = {
  default: DefaultLayout,
  bare: BareLayout,
};
