import { Config } from '@ton/blueprint';

export const config: Config = {};
