export const PACKAGE_NAME = '@canopy/admin-api-server';
