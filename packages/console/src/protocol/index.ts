export * from './schema';
export * from './operators';
export * from './conditions';
export * from './jsonapi';
export * from './query';
export * from './client';
export * from './view-state';
export * from './charts';
