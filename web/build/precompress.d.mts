// Types of precompress.mjs (plain JavaScript: web/build/build.mjs runs without TypeScript's loader).
export declare function precompressDir(dir: string, level: 'best' | 'fast'): Promise<void>
