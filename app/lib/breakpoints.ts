/**
 * The spec's responsive breakpoints (Bootstrap's) and the body classes that
 * record them. The same table feeds the inline script that sets the classes
 * before first paint and any React code that needs the active breakpoint.
 */

export const breakpoints = [
  ["xs", 0],
  ["sm", 576],
  ["md", 768],
  ["lg", 992],
  ["xl", 1200],
  ["xxl", 1400],
] as const;

export type BreakpointName = (typeof breakpoints)[number][0];

/** The largest breakpoint whose minimum is at most the width. */
export function activeBreakpoint(width: number): BreakpointName {
  let active: BreakpointName = "xs";
  for (const [name, min] of breakpoints) if (width >= min) active = name;
  return active;
}

/** Every bp-* class for a viewport width: bp-{active}, then bp-{name}-up or -down for each breakpoint. */
export function breakpointClasses(width: number): string[] {
  return [
    `bp-${activeBreakpoint(width)}`,
    ...breakpoints.map(([name, min]) => `bp-${name}-${width >= min ? "up" : "down"}`),
  ];
}

/**
 * Source of the inline script placed first in <body>: sets the classes before
 * first paint and keeps them current on resize. Plain ES5, no dependencies;
 * other classes on <body> are left alone.
 */
export const breakpointScript = `(function(){var t=${JSON.stringify(breakpoints)},b=document.body;function u(){var w=window.innerWidth,a="xs",c=[],i,n;for(i=0;i<t.length;i++){if(w>=t[i][1])a=t[i][0];c.push("bp-"+t[i][0]+(w>=t[i][1]?"-up":"-down"))}c.unshift("bp-"+a);n=b.className.split(/\\s+/).filter(function(x){return x&&x.indexOf("bp-")!==0});b.className=n.concat(c).join(" ")}u();window.addEventListener("resize",u)})();`;
