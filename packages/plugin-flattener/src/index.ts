export const PACKAGE_NAME = '@canopy/plugin-flattener';
