// One jest run over every workspace project, so CI gets one summary.
module.exports = {
  projects: ['<rootDir>/packages/*', '<rootDir>/internal/*', '<rootDir>/apps/*'],
};
