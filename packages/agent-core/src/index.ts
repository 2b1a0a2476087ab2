export const PACKAGE_NAME = '@canopy/agent-core';
