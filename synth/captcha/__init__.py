"""captcha."""
