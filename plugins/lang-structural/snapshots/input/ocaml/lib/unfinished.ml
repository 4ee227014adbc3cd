let broken = {| quoted string (* comment
