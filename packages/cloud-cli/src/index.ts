export const PACKAGE_NAME = '@canopy/cloud-cli';
