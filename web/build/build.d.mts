// Types of build.mjs (plain JavaScript: it runs without TypeScript's loader, whose hooks slow vite's loading).
export declare function buildWebApp(level: 'best' | 'fast', logLevel?: 'info' | 'warn'): Promise<void>
