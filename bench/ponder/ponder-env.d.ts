/// <reference types="ponder/virtual" />

// Ponder rewrites this file on start; it gives editors the types of the virtual ponder:* modules.
