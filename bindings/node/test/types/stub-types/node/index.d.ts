// A stand-in for the few declarations of @types/node that index.d.ts and the typed examples use, shaped as in
// @types/node 20: Debian packages TypeScript (node-typescript) but not @types/node, and nothing is downloaded
// for the tests. An app compiles index.d.ts against the real @types/node.

declare module 'node:events' {
  class EventEmitter {
    on(eventName: string | symbol, listener: (...args: any[]) => void): this;
    once(eventName: string | symbol, listener: (...args: any[]) => void): this;
    off(eventName: string | symbol, listener: (...args: any[]) => void): this;
    addListener(eventName: string | symbol, listener: (...args: any[]) => void): this;
    removeListener(eventName: string | symbol, listener: (...args: any[]) => void): this;
    emit(eventName: string | symbol, ...args: any[]): boolean;
    static once(emitter: EventEmitter, eventName: string | symbol, options?: { signal?: AbortSignal }): Promise<any[]>;
  }
  const once: typeof EventEmitter.once;
  export { EventEmitter, once };
}

interface SymbolConstructor {
  readonly dispose: unique symbol;
  readonly asyncDispose: unique symbol;
}

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: any;
  throwIfAborted(): void;
}
declare var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: any): AbortSignal;
  timeout(milliseconds: number): AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: any): void;
}
declare var AbortController: { prototype: AbortController; new (): AbortController };

interface Buffer extends Uint8Array {
  toString(encoding?: string): string;
}
declare var Buffer: { from(text: string, encoding?: string): Buffer; prototype: Buffer };

interface Console {
  log(...data: any[]): void;
  error(...data: any[]): void;
  warn(...data: any[]): void;
  info(...data: any[]): void;
  debug(...data: any[]): void;
}
declare var console: Console;
declare var process: { env: Record<string, string | undefined>; exitCode?: number | undefined };
