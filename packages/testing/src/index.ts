export const PACKAGE_NAME = '@canopy/testing';
