print("rcpt")
