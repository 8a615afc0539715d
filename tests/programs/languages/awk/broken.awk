{ print ( }
