import { createContext, useContext } from "react";

/** The CSP nonce of this response; empty on the client, where React never renders scripts again. */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
