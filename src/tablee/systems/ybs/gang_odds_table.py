"""The exact odds of every gang fight of 4 to 6 dice a side, solved once.

Written by ``scripts/gang_odds_table.py`` (do not edit): a zlib-compressed JSON object,
in base64, from `tablee.systems.ybs.gang_odds.odds_key` to ``[win, draw, loss,
expected throws]``, each an exact fraction written ``numerator/denominator``.

Source: seed 004; rulings Y-M7, Y-A13, Y-A14.
"""

__all__ = ["ODDS"]

ODDS: str = (
    "eNrNmc1uJEcOhF/F0NlAk0wmk5xXMXwwsIu1r774YPjd/UXpZ1o3r6EezYzQkrqrMslgRJBZ+vMpv+SX//z+yx9PX3"
    "746Slthx0/J/aUZW9bfus5O5bNbEs+ad+rnn784SnX3rlO5MThzX3WuWX2Kd953dKVdqqva/+fhb3Dp1asyQ6zDrbI"
    "mVm3PGmWLDyss9tzuXOFPf2sPcjk19/+9+t/f79yiV2reGGNjFGgdnK87Nz2sm5+XmsfO4slonemFmKdsTM9zjvc6N"
    "1Wp22xexQXRe7iDULdZZ5x4uW2f73fv053fy0cF/hZK2fvJrIF7myz7TRoB9Gf2+rpc1xZ7eR9X5VsPaycVGR1XtGs"
    "tdiIXcKK9Pll2cro5cd056ZwhDHmJ9Yi7o4eI7ck/aM0mhzjGRLLzSprpzvV35T4RIEL31cbYfr6x4sB7iLL3H0mix"
    "xJptqDd3OTyOHSPDePOm52tsdQN6iYwM4dFNRqQ9e+R/COMD7uaUGA27iO8hLkNiCnQK64yN6L0G+Hgu46VAokz4Ec"
    "UAMEl0+DFehl9fNGIlQvlqG6k2BBTZPAh5RJj7eau0kHAGBYDqoi1j5855/PHNWdDBaxRdXAr5eFKTdEiUBkW7GlWx"
    "pEi4myEvhSFSsrZApBCMtrpjx5u2sPhU+BSlm4PKRYexjadcdXdKKPAHjECJJHM5AAdZ29h01ZdPsNFogtOASQwJia"
    "vZotQLTZFbmgwnoNmsQhu9uwNeVxKAV7FDQ/RXXhUSQP6Qhsb4DUjqiZGh4EwI0t7oMKVQfWF4XiUjCA6+Ek0lkqxi"
    "yEUTELPDNC5bTymxfyP6TkvNMT3dT6eckgXD6UIvpN/Ehg4TfYgTcV4E6s55Bf4i6IjUB9H8jH2sleRuWESG0KDasG"
    "Ign6annwHlHgHvI7go8JDYXcmAmQ7w5M4Kw4ALAT5KkFDD5sgmthEUlk1JZwXJvaCJSDH3AVnD9wwV93lOCTwjmMDR"
    "bsBRdwI5DG+K/sB2tpSNu0CsqjcCQawkF7zQW8IjuDACHTBcCyN6RKPgieB+tECGvoKWyNGJMylhEUuJaB54aai4JH"
    "DbKh9q2Pk9XEdDQDfTbkYQWg+ybF2PeN9mOd8QMt+wMbyYc7yH7f4B/ofg9z7If1mEegfTdflBsqM7CFaPidhFxjCx"
    "xqYyjr5iIay8n9UGn5sLNd8JZ89SV/CkAtnLKBEyXAbPBRDLKwGKSNLfA/cRC/zJU71R5kKEsm+rzMh4WDIzKQwltY"
    "JGDoSwf3YzGKS4tiotU61FCG4S2vQi1o5rLQd2DdjxKKos2Dsp0Yxj2+j9mugJ00NkZJlWhuZE3yjMMIdMuaNk1rBf"
    "QgNHh60SLvLPCiIB1vYUkwEu+R21gmNedCtB00IWVlJMs2BEvldwGkhIzBAZxjsa+D6+OC/Shs7wYHp+FTcM4TF3US"
    "v9XRY6utYG3bOFM0c/fCgZFVYsLAEnJA0sIRJA6ZtKYMtse2Eg+HO8zlGiiQ9RjyANOZt2QCJ3WMU0MFBqojAQsDBl"
    "ZJH2BnANGYQml0OBgtiNw4CC3hz13gSJihxuK6sxHodu4APpCjkbZaZr9QfB1hSrsjePUUVQEF4Lej64RSbOHduIZJ"
    "ECQjVM6tKC+iIjBa+xITjutw5TRO6EExcG/MBgpQYMF+1LJfU6XD0lGo8iaU0Nhjl1ExZy1/tsPFGYjBgfXXSNEojN"
    "mAdFUCcEB4KM/pivQF+j9Ww54Ql7GOG9ErI1RogDp53yHfjStAQcWWgmMcg9+InJJA0XX5nGtTAzLqVRoUABBbMPpc"
    "SyiUgYjo3oySMFaFAh5Om7gAaTMnQhwoTFw6eMk5iVlNDv8hHV7jdfhgZYDYaMMOE2So3N1X14e8qER9VWYuY+tLcV"
    "1MPBCRCIkjcHCxCu3RdtjmKCNZO5VhWNSQCJzsA8vE5dJcQD9jcHob9zVpLI27hKcJqFQMsqLpHHU2ygI8DEb4JUur"
    "bbPdqL1dreBGGdiO4FuFQ0r0TKmnGI2hKhsSpVpFaQBW59fIiEKgWNunE6TuR6gHDuWPOkc85tTz0Km13s9c32AIf+"
    "QZ4vEnoAcX424k+7wG8c174Wc1/U80uv2+E34Xxv+dNMHvZyr4TILcz8RNGeE2RwG1kpHiOSVKJzAfcugkwAuJkBFj"
    "dwtWFz0YvdlKxsFoT/2bXnidBUCMr3hVoM4Wwtt0ikJDo8fbyqt0KEXDEg6ux++uJ+VcxGl4gAeodZDGnEI4Uzsoeh"
    "kSUudLST0/BX94EhD2gLTsNum/7ICpsWpch3v6gB4OHB3lW+0Y3J+5EjqE7i3m4aglf8ebaEeuv2QkHRDDZAiArqfe"
    "lehOwwR3QAHh5dU50C3U0R8QBAj9hJ5D3k1709EN4MArldVNTxCEk1wby4NUpfNSyjc5uZdcgFyCizhfsxErx9dxbV"
    "wPakznRcxxRL+4OitIspYkPOqtstG+KqSjNMczPQbSc6HUBvrLjl1BSdFLTyfw8Gbo0l950Mn1EKvqrRN+XsLfrsx/"
    "/Q1q1JTR"
)
"""The stored odds, compressed (read by `tablee.systems.ybs.gang_odds`)."""
