import { classifyError } from './error-status';

describe('classifyError', () => {
  it('maps the URIError express throws for an undecodable path segment to an exposed 400', () => {
    const error = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), {
      status: 400,
      statusCode: 400,
    });
    expect(classifyError(error)).toEqual({ status: 400, exposed: true });
  });

  it('keeps other URIErrors (thrown by code, without a status) unexposed 500s', () => {
    expect(classifyError(new URIError('URI malformed'))).toEqual({ status: 500, exposed: false });
  });

  it('does not trust a 4xx status on an error without a code', () => {
    const error = Object.assign(new Error('boom'), { status: 404 });
    expect(classifyError(error)).toEqual({ status: 500, exposed: false });
  });
});
