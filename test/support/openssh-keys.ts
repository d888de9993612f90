/**
 * Public-key lines for the Windows OpenSSH key tests: written by ssh-keygen (OpenSSH 9.2p1: `ssh-keygen -t <type> -C ops@example`),
 * the security-key ones assembled from a fresh Ed25519 key and P-256 point and read back by `ssh-keygen -l`.
 * Their private halves were thrown away.
 */

/** One line of each key type Windows OpenSSH takes, by type. */
export const ACCEPTED_KEYS: Readonly<Record<string, string>> = {
  'ssh-ed25519':
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGk+EqgFZkNtLzvZmooCxMkOakcdDALl68b6Tg6UL/mw ops@example',
  'ssh-rsa':
    'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDHq2MqnXjkoSoKA/sn3xdZCdNj3rv4zOds/Dw8d04Gt8hrf4Vn+01kjnfUuFU5Qkw4tqe0gennl4+bgW2ox/PulOpx8N2+zrqw6YUDGWW/8FHfTQYYEESiJpQug/S3fsE+t87e8oWxwCbSN6izU0B/qH66dMSVhyvU0lLNoAB5JWHtBr8Yl+AcO/Q6f68aHLif33AE93A1MEtoLcf4xExgvpwehn503GN124KpjgV0ToEx2nD8VN9vBs8p+EQN0R0DeWuCADrGesMAlRjR8Eh8OXMb30duHEWZwmwIlQKVFAQQgZPMqbL9C4E4ZfNmYUa1Uoj54L06RzX+MAA8wDRUG6kC86aWbobpET96t1uKbD56nQLWqEfsqDDc3Nzt4lHXC1F/oeoxY2hD89EiKP/2uQzzNAPp9gLqL0sfpuV1/UTpSZi5nN/5VWwkOKt8HMoGgGDexPAh3zjib8LqSgRsGrU83ZapFOFCvJO6OOicIWxAyP4Zovrjil6P4qExGsU= ops@example',
  'ecdsa-sha2-nistp256':
    'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBLATj0cfiaKja3jK+lZk6nEgZT1HmsRiFkwSStXOM49ff1q9UqZ+54HXJVWdp1kHlG6Ji4oYxjfTPEpujOFTW9s= ops@example',
  'ecdsa-sha2-nistp384':
    'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBL9r5CfxosDlFMk3d2kxyu2A1pMEb+fQu9PyxVxq9G3VEGYpTSQzUhW3cu7ZSjU0Q0b/aDPzT7LFYRsSd3ARk/2oVKdkc2CUyhDsA4L6e6h8VOamKGEr3hBe6aMbYJg1cg== ops@example',
  'ecdsa-sha2-nistp521':
    'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAHA/teqXsmNJ+em2LMbEj1y7brkiOgksHnhe1s/4/ygjSaU9oE3/IrAEvgppqP+61PnrQKaqjlo3McdRUDqXlZnMwB1O7TVsQaonwGs0A7QB36vrU+/yQiY401BHFzsrof+xI1JSuNJCarDNSnixwMNC8/OxtyZDAs2X7xWq4qS8e3JtQ== ops@example',
  'sk-ssh-ed25519@openssh.com':
    'sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIEkQhJuqwevuV5wgUMnGRhvmBewvbR/CfFvWEZGwrbBxAAAABHNzaDo= ops@example',
  'sk-ecdsa-sha2-nistp256@openssh.com':
    'sk-ecdsa-sha2-nistp256@openssh.com AAAAInNrLWVjZHNhLXNoYTItbmlzdHAyNTZAb3BlbnNzaC5jb20AAAAIbmlzdHAyNTYAAABBBHJTsrepD7LmFaXmx2cLAFxTvEUwizYdjIwE5vVbYTeiLdVResIDQiijat9RItBradAxkZ638y0bZ9aVKUvi5a4AAAAEc3NoOg== ops@example',
};

/** A DSA key (`ssh-keygen -t dsa`), which Windows OpenSSH refuses. */
export const DSA_KEY =
  'ssh-dss AAAAB3NzaC1kc3MAAACBAPaDpaxabqRbDNYEoHn9l3mHj4dARMMB8riHfGDvUfrssL8TBEIXLT5BCWBVf0gk6kFMvW7nncsGIPqMbFxi/7atrsfR6etzPYLG6O6XQ02C/6stNKvUMuJ7rOgCE64fACF0qs68M+yeF4TsWmOBIgH0x8UV1HIfovwTjUQPkSuFAAAAFQDM5pCKjkQbC7E7ODrKz09GHYIUXwAAAIEAuDo9YaLIskwh2PqYHOGsQOn+ezFQBFM8SQR5V80xqJBjeivmiqW6nV9p3D2kCr5HmVBV9ZeECPbC21sXWWQO/NzfSNJ7gSHPa3INrDCeExp8Y9TGaQEFa2KnNmp9ZFfkRjUPOP6OfpIVtM4FW21RhwM/b9LTZ/bKS7JluuEa+LgAAACAMQLjzcVo11T4W+Pvl+IlGvwn3IC6LNYSnXLgvIkveDLkDOmzONcCF5LHiTPFy9L5812J36PPE9WxlOePPxgESlpf0S9JcUzZ1BFBtDmwek6FZAVRAEu6JVWXIqBcMZ6yw1FmEyZlAJWIdBmeH1FQbydncAUGPX4nYUAcQJTCbm8= ops@example';
