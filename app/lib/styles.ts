import { createContext, useContext } from "react";

/**
 * The stylesheet's text, which the server writes into every page's head (issue 22): a first visit
 * then paints without waiting for a render-blocking stylesheet request.
 */
export const StylesContext = createContext("");

export const STYLES_ID = "styles";

// In the browser, the text the server wrote, read before React hydrates: the element then hydrates
// as it is, and a page React renders again from scratch (after a hydration error) keeps its styles.
const written = typeof document === "undefined" ? "" : (document.getElementById(STYLES_ID)?.textContent ?? "");

export const useInlineStyles = () => useContext(StylesContext) || written;
