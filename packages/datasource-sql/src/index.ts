export const PACKAGE_NAME = '@canopy/datasource-sql';
