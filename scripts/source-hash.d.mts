// Types of source-hash.mjs (plain JavaScript, read by scripts/start.mjs before TypeScript can load).
export declare const webInputs: readonly string[]
export declare const serverInputs: readonly string[]
export declare function sourceHash(root: string, inputs: readonly string[]): string
export declare function bundleFolder(root: string): { dir: string; hashFile: string }
export declare function toBuild(root: string, inputs: readonly string[], hashFile: string): string | null
