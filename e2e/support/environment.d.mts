export declare const E2E_PORT: number;
export declare const E2E_BASE_URL: string;
export declare const E2E_DATA_DIR: string;
export declare const CHROMIUM_PATH: string;
export declare const E2E_CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: string[];
export declare const SPEC_PORTS: {
  readonly cliServer: number;
  readonly cliProxy: number;
  readonly storageServer: number;
  readonly hostileKdfProxy: number;
  readonly hostileServerProxy: number;
  readonly teamFoldersProxy: number;
};
export declare const E2E_REDUCED_MOTION: 'reduce';
